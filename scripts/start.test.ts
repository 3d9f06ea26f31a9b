/**
 * `npm start` (scripts/start.mjs) on a configuration or a build it cannot start with: it exits
 * non-zero with the words, before Next is started or a build begins. Each case runs the script in
 * a scratch root whose app sources and node_modules are this checkout's (linked), so its build
 * state is the test's to set and nothing here touches this checkout's .next.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const checkout = path.resolve(import.meta.dirname, '..');
let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-start-'));
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const file of ['start.mjs', 'doctor.mjs']) fs.copyFileSync(path.join(checkout, 'scripts', file), path.join(root, 'scripts', file));
  for (const entry of ['node_modules', 'lib', 'app', 'components', 'public', 'package.json', 'package-lock.json', 'tsconfig.json', 'next.config.ts']) {
    fs.symlinkSync(path.join(checkout, entry), path.join(root, entry));
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Runs `node scripts/start.mjs` in the scratch root with only `env` (and PATH); resolves with how it ended. */
function start(env: Record<string, string>, script = 'scripts/start.mjs'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      cwd: root,
      // RUNPAD_NO_BUILD: whatever happens, no build runs in the scratch root (its public/ is this checkout's).
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), RUNPAD_DATA_DIR: path.join(root, '.data'), PORT: '1', RUNPAD_NO_BUILD: '1', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start refuses what it cannot start, in words, before anything starts', () => {
  it('a configuration that cannot work: exit 1, one message per problem with its variable and fix, no build, no server', async () => {
    const result = await start({
      RUNPAD_ACCESS: 'invite',
      RUNPAD_PASSWORD_SIGN_IN: '0',
      RUNPAD_MODELS: JSON.stringify([{ id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5' }]),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('runpad: cannot start: 3 problems in the configuration');
    expect(result.stderr).toMatch(/- ANTHROPIC_API_KEY: not set, and RUNPAD_MODELS entry 1 \("claude"\) \(anthropic\) takes its key from it\.\n {4}Fix: set ANTHROPIC_API_KEY/);
    expect(result.stderr).toMatch(/- RUNPAD_ACCESS: invite requires signing in, but there is no way to sign in .*\n {4}Fix: set RUNPAD_PASSWORD_SIGN_IN=1/);
    expect(result.stderr).toMatch(/- RUNPAD_ALLOWED_EMAILS: empty, and RUNPAD_ACCESS=invite lets in only who is invited/);
    expect(result.stdout).not.toMatch(/Ready|building/);
  });

  it('a Redis that does not answer: exit 1 naming REDIS_URL and what to set', async () => {
    const result = await start({ REDIS_URL: 'redis://127.0.0.1:9' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/- REDIS_URL: Redis at that URL cannot be reached \(ECONNREFUSED\)\n {4}Fix: start Redis there or correct the URL/);
    expect(result.stdout).not.toMatch(/Ready|building/);
  });

  it('a misspelt setting (RUNPAD_ACESS=invite) is named with the setting meant, and the start goes on to its next check', async () => {
    const result = await start({ RUNPAD_ACESS: 'invite', RUNPAD_NO_BUILD: '1' });
    expect(result.stderr).toMatch(/runpad: 1 setting ignored .*\n {2}- RUNPAD_ACESS: not a setting Runpad knows, so it is ignored\.\n {4}Fix: did you mean RUNPAD_ACCESS\?/);
    expect(result.stderr).not.toContain('invite');
    // Not a problem that stops it: the next check (no build, and RUNPAD_NO_BUILD=1) is what ends it.
    expect(result.stderr).toContain('there is no build yet');
  });

  it('with RUNPAD_NO_BUILD=1, no build or one older than the sources is refused with the command to run', async () => {
    const missing = await start({ RUNPAD_NO_BUILD: '1' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('runpad: cannot start: there is no build yet, and RUNPAD_NO_BUILD=1 keeps npm start from building. Run `npm run build`, then `npm start` again.');

    // A build older than every source: the refusal names the newest changed files.
    fs.mkdirSync(path.join(root, '.next'), { recursive: true });
    fs.writeFileSync(path.join(root, '.next/BUILD_ID'), 'old');
    fs.utimesSync(path.join(root, '.next/BUILD_ID'), new Date(1_000), new Date(1_000));
    const stale = await start({ RUNPAD_NO_BUILD: '1' });
    expect(stale.code).toBe(1);

    expect(stale.stderr).toMatch(/runpad: cannot start: the build is older than the sources \(changed since: [^)]+ and \d+ more\), and RUNPAD_NO_BUILD=1 keeps npm start from building\. Run `npm run build`/);
  });
});

describe('npm run doctor', () => {
  it('prints the same problems and exits 1, reading .env.local as the server would; with none, what the server would start with', async () => {
    fs.writeFileSync(path.join(root, '.env.local'), 'RUNPAD_ADMIN_EMAILS=ana@team.example\nRUNPAD_PASSWORD_SIGN_IN=0\n');
    try {
      const broken = await start({}, 'scripts/doctor.mjs');
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain('runpad doctor: 1 problem in the configuration');
      expect(broken.stderr).toMatch(/- RUNPAD_ADMIN_EMAILS: names admins, but no one can make an account .*\n {4}Fix: set RUNPAD_PASSWORD_SIGN_IN=1/);
    } finally {
      fs.rmSync(path.join(root, '.env.local'));
    }
    const fine = await start({ RUNPAD_REDIS_PREFIX: 'team-a:' }, 'scripts/doctor.mjs');
    expect(fine.code).toBe(0);
    expect(fine.stdout).toContain('runpad doctor: the configuration can start.');
    expect(fine.stdout).toContain('models: demo (demo, the default)');
  });
});

describe('whether the build is out of date', () => {
  it('names the sources changed since the build, newest first, and a changed unit test or a bytecode cache does not count', async () => {
    const { buildState } = await import('./start.mjs');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-build-state-'));
    try {
      const at = (file: string, seconds: number) => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), '');
        fs.utimesSync(path.join(dir, file), new Date(seconds * 1000), new Date(seconds * 1000));
      };
      at('app/page.tsx', 100);
      at('lib/config.server.ts', 100);
      expect(buildState(dir)).toEqual({ state: 'missing' });
      at('.next/BUILD_ID', 200);
      expect(buildState(dir)).toEqual({ state: 'current' });
      at('lib/config.test.ts', 300);
      at('scripts/start.test.ts', 300);
      // CPython's bytecode caches (a test that imports lib/targets/python/engine/runpad under CPython writes them).
      at('lib/targets/python/engine/runpad/__pycache__/kernel.cpython-311.pyc', 300);
      expect(buildState(dir)).toEqual({ state: 'current' });
      at('lib/config.server.ts', 400);
      at('package-lock.json', 500);
      expect(buildState(dir)).toEqual({ state: 'stale', changed: ['package-lock.json', path.join('lib', 'config.server.ts')] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
