import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { runSlowness } from './e2e/patience';
import { suiteCores, unitWorkers } from './scripts/lanes.mjs';
import { unitTestFiles } from './scripts/unit-files.mjs';

const include = ['**/*.test.ts'];
const exclude = ['node_modules/**', 'e2e/**/*.spec.ts', '.next/**', 'e2e/.artifacts/**', 'bench/**'];

/**
 * A test file that changes what other files would see (mocks a module, stubs the environment or a
 * global, fakes the timers, writes process.env or globalThis, or calls lib/testing/stub-env.ts) runs in a fresh module graph of its
 * own. Every other file shares one: re-importing the app's module graph for each of ~90 files was
 * half of the unit lane's CPU (130 s → 76 s without it), which runs beside the browser lane on two
 * cores. tests/shared-state-guard.ts fails a shared file that changes the environment or adds a
 * global after all, naming what it changed, so a leak cannot reach another file unnoticed.
 */
const CHANGES_SHARED_STATE = /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers)\b|\bstubEnvs\(|process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|globalThis\.\w+\s*=(?!=)/;

const isolatedFiles = unitTestFiles().filter((file) => CHANGES_SHARED_STATE.test(fs.readFileSync(path.join(import.meta.dirname, file), 'utf8')));

/** How much slower than the reference machine this one is now (measured once; e2e/patience.ts). */
const slowness = runSlowness(suiteCores(), 'unit');

export default defineConfig({
  // 'server-only' throws outside React's server condition; server modules are what these tests test.
  resolve: { alias: { '@': path.resolve(import.meta.dirname), 'server-only': path.resolve(import.meta.dirname, 'tests/server-only-stub.ts') } },
  test: {
    environment: 'node',
    // Safety nets, not expectations (the tests wait for states and never time anything): a fresh
    // PGlite with its migrations took 30 s on a machine at load 23, and at load 25 with two files
    // at a time tests that open several hit 60 s. The e2e suite's budget, and more for set-ups.
    // The reference machine's numbers, scaled to this one as the e2e suite's are (e2e/patience.ts).
    testTimeout: Math.round(180_000 * slowness),
    hookTimeout: Math.round(300_000 * slowness),
    // One file at a time per two cores (scripts/lanes.mjs): the unit lane runs beside the browser
    // lane, and with two files at a time on two cores tests that open several databases ran past
    // even these limits at load 25 (bench/NOTES-ci.md, 2026-11-27). No two files share a resource
    // they could collide on (every database, Redis key prefix and directory is per file or per run;
    // servers a test owns listen on ports the system chose or no other file uses).
    maxWorkers: unitWorkers(),
    projects: [
      { extends: true, test: { name: 'isolated', include: isolatedFiles, exclude, isolate: true } },
      { extends: true, test: { name: 'shared', include, exclude: [...exclude, ...isolatedFiles], isolate: false, setupFiles: ['tests/shared-state-guard.ts'] } },
    ],
  },
});
