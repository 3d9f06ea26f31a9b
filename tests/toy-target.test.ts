/**
 * Adding a target with an engine is its folder plus one line in each of the two lists
 * (docs/ARCHITECTURE.md, "Adding a target"), shown on a toy target kept in the suite: its folder,
 * tests/toy-target/lib/targets/toy/, laid out as a target's is in the product (a definition, a
 * runner, an engine folder with its worker). Its worker is found by the worker build's glob and
 * bundled as the build bundles, its policy comes from its definition, and its runner runs code in
 * that bundle (a Node worker thread dressed as a dedicated worker). The toy is in no list of the
 * product: its two lines are below, in copies of the lists.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker as ThreadWorker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workerScriptCsp, type WorkerCspSettings } from '@/lib/security/csp';
import { TARGET_LIST, TARGET_WORKERS } from '@/lib/targets/registry';
import { BROWSER_TARGETS, type RunnerFactory } from '@/lib/targets/runners.client';
import type { RunnerEnv } from '@/lib/targets/runner-env';
import { engineFolders, repositoryRoot, workerBuildOptions, workerScripts } from '../scripts/engine-sources.mjs';
import { engineProblems, runnerNameProblems } from './engines';
import { toy } from './toy-target/lib/targets/toy/meta';
import { createToyRunner } from './toy-target/lib/targets/toy/runner.client';

/** The toy's repository: what the glob reads, as it reads the product's. */
const TOY_ROOT = path.join(repositoryRoot, 'tests/toy-target');

// The two list lines: TARGET_LIST (lib/targets/registry.ts) and BROWSER_TARGETS (lib/targets/runners.client.ts).
const targetList = [...TARGET_LIST, toy];
const browserTargets: Record<string, { create: RunnerFactory }> = { ...BROWSER_TARGETS, toy: { create: createToyRunner } };

/** A Node worker thread dressed as a dedicated worker: `self`, its message events, the script run as a module. */
const HARNESS = `
import { parentPort, workerData } from 'node:worker_threads';
const scope = new EventTarget();
globalThis.self = globalThis;
globalThis.addEventListener = scope.addEventListener.bind(scope);
await import(workerData.script);
parentPort.on('message', (data) => scope.dispatchEvent(new MessageEvent('message', { data })));
`;

let outdir: string;

/** The page's `Worker`, for a script the build wrote to public/workers/ (here: outdir). */
class DedicatedWorker {
  private readonly thread: ThreadWorker;

  constructor(url: string) {
    const name = new URL(url, 'http://runpad.test').pathname.replace(/^\/workers\//, '');
    this.thread = new ThreadWorker(path.join(outdir, 'harness.mjs'), { workerData: { script: pathToFileURL(path.join(outdir, name)).href } });
  }

  postMessage(message: unknown, transfer: readonly Transferable[] = []): void {
    this.thread.postMessage(message, transfer as never);
  }

  terminate(): void {
    void this.thread.terminate();
  }
}

beforeAll(async () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-toy-target-'));
  fs.writeFileSync(path.join(outdir, 'harness.mjs'), HARNESS);
  const entryPoints = workerScripts(TOY_ROOT).map(([name, file]) => ({ in: path.join(TOY_ROOT, file), out: name }));
  await build({ ...workerBuildOptions(repositoryRoot), entryPoints, outdir, logLevel: 'silent' });
  vi.stubGlobal('Worker', DedicatedWorker);
});

afterAll(() => {
  vi.unstubAllGlobals();
  fs.rmSync(outdir, { recursive: true, force: true });
});

/** The toy repository's files, as the layout checks read a repository's. */
function toyFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of fs.readdirSync(TOY_ROOT, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(TOY_ROOT, file);
    if (fs.statSync(full).isFile()) files.set(file.split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return files;
}

describe('a target with an engine: its folder and two list lines', () => {
  it('is laid out as the product is: its engine in its folder, found by the build, its runner named runner.client.ts', () => {
    expect(engineFolders(TOY_ROOT)).toEqual(['lib/targets/toy/engine']);
    expect(workerScripts(TOY_ROOT)).toEqual([['toy.worker', 'lib/targets/toy/engine/toy.worker.ts']]);
    expect(fs.existsSync(path.join(outdir, 'toy.worker.mjs'))).toBe(true);
    expect(engineProblems(toyFiles())).toEqual([]);
    expect(runnerNameProblems(toyFiles().keys(), ['toy'])).toEqual([]);
  });

  it('has its worker served with the policy it declares, through its line in the list; the product serves none', () => {
    const settings: WorkerCspSettings = { pyodideIndexPath: '/pyodide/0.0.0/', packageBaseUrl: '/pyodide/0.0.0/', duckdbAssetPath: '/duckdb/1.0.0/', duckdbExtensionUrl: 'https://extensions.duckdb.org', webrBasePath: '/webr/0.6.0/', rPackageRepoUrl: 'https://repo.r-wasm.org/' };
    const policy = (workers: typeof TARGET_WORKERS) => workerScriptCsp('/workers/toy.worker.mjs', 'https://runpad.example', settings, workers);
    expect(policy(targetList.flatMap((target) => target.workers))).toBe("default-src 'none'");
    expect(policy(TARGET_WORKERS)).toBeNull();
    expect(TARGET_LIST.map((target) => target.id)).not.toContain('toy');
  });

  it('runs code in its bundled worker through the runner its line makes', async () => {
    const runner = browserTargets.toy.create({} as RunnerEnv);
    const result = await runner.run('héllo, wörld 👋', { files: [], timeoutMs: 60_000 });
    expect(result.status).toBe('ok');
    expect(result.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: '👋 dlröw ,olléh' }]);
    expect(runner.state()).toEqual({ kind: 'idle' });
    runner.dispose();
  });
});
