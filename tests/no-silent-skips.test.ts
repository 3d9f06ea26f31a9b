/**
 * Under CI=true a test that needs a service or a package the machine lacks fails; it never skips
 * itself (lib/testing/required.ts). Checked two ways: every test file of the repository that can
 * skip does so through `skipOutsideCi` (directly or through a helper of lib/testing that calls it),
 * or skips for what the machine cannot reach (a CDN) with that reason in a comment beside it; and
 * the helpers, run against a Redis and a Postgres that are not there, fail under CI and skip
 * otherwise.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A skip: Vitest's skipIf/runIf/.skip and Playwright's test.skip/fixme. */
const SKIP = /\.(skipIf|runIf)\(|\b(describe|it|test)\.(skip|fixme)\(|\bcontext\.skip\(/g;
/** The reason a skip is allowed under CI: the machine cannot reach something outside it. */
const UNREACHABLE_COMMENT = /\/\/.*\b(not reachable|cannot reach|unreachable)\b/i;

/** Exported names of lib/testing modules that call skipOutsideCi: using one routes its skip through it. */
function requiringHelpers(files: Map<string, string>): string[] {
  const names = ['skipOutsideCi'];
  for (const [file, text] of files) {
    if (!file.startsWith('lib/testing/') || !/\bskipOutsideCi\(/.test(text)) continue;
    for (const match of text.matchAll(/export (?:async )?(?:function|const) (\w+)/g)) names.push(match[1]);
  }
  return names;
}

/** Per file, the lines of skips that neither go through skipOutsideCi nor are for an unreachable host. */
function silentSkips(files: Map<string, string>): string[] {
  const helpers = requiringHelpers(files);
  const problems: string[] = [];
  for (const [file, text] of files) {
    if (!/\.(test|spec)\.ts$/.test(file) || file === 'tests/no-silent-skips.test.ts') continue;
    const lines = text.split('\n');
    const usesHelper = helpers.some((name) => new RegExp(`\\b${name}\\b`).test(text));
    lines.forEach((line, index) => {
      if (!SKIP.test(line)) return;
      SKIP.lastIndex = 0;
      const nearby = lines.slice(Math.max(0, index - 4), index + 1).join('\n');
      if (!usesHelper && !UNREACHABLE_COMMENT.test(nearby)) problems.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return problems;
}

function repositoryFiles(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'e2e', 'tests', 'scripts', 'deploy', 'app', 'components'], { encoding: 'utf8' });
  const files = new Map<string, string>();
  for (const file of listed.split('\n')) if (file.endsWith('.ts') && fs.existsSync(file)) files.set(file, fs.readFileSync(file, 'utf8'));
  return files;
}

describe('skips under CI', () => {
  it('every skip in the repository goes through skipOutsideCi, or is for a host the machine cannot reach', () => {
    expect(silentSkips(repositoryFiles())).toEqual([]);
  });

  it('names a skip on a bare condition, and lets one through a helper or for an unreachable CDN', () => {
    const files = new Map([
      ['lib/testing/required.ts', 'export function skipOutsideCi(reason) { return reason; }'],
      ['lib/testing/redis.ts', "import { skipOutsideCi } from './required';\nexport async function redisUnavailable() { return skipOutsideCi('x'); }"],
      ['lib/a.test.ts', "const skip = !fs.existsSync('/usr/bin/nginx');\ndescribe.skipIf(skip)('nginx', () => {});"],
      ['lib/b.test.ts', "const python = find();\n  it.runIf(python)('runs', () => {});"],
      ['e2e/c.spec.ts', "test('x', async ({}) => {\n  if (!ok) test.skip(true, 'no Postgres');\n});"],
      ['lib/d.test.ts', "const skip = await redisUnavailable();\ndescribe.skipIf(skip)('redis', () => {});"],
      ['e2e/e.spec.ts', "  // The CDN is not reachable from every machine: skipped, saying so.\n  test.skip(!reachable, 'cdn not reachable');"],
    ]);
    expect(silentSkips(files)).toEqual([
      "lib/a.test.ts:2: describe.skipIf(skip)('nginx', () => {});",
      "lib/b.test.ts:2: it.runIf(python)('runs', () => {});",
      "e2e/c.spec.ts:2: if (!ok) test.skip(true, 'no Postgres');",
    ]);
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a service that is not there', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it.each([
    ['true', 'fails, naming it', true],
    ['', 'is skipped with the reason', false],
  ])('under CI=%j %s (Redis, Postgres)', async (ci, _how, fails) => {
    const port = await closedPort();
    vi.stubEnv('CI', ci);
    vi.stubEnv('TEST_REDIS_URL', `redis://127.0.0.1:${port}`);
    vi.stubEnv('TEST_DATABASE_URL', `postgres://postgres@127.0.0.1:${port}/postgres`);
    vi.resetModules();
    const { redisUnavailable } = await import('@/lib/testing/redis');
    const { serverBackend } = await import('@/lib/testing/databases');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    if (fails) {
      await expect(redisUnavailable()).rejects.toThrow(`no Redis at redis://127.0.0.1:${port}`);
      await expect(serverBackend().available()).rejects.toThrow(`no Postgres server at 127.0.0.1:${port}`);
    } else {
      expect(await redisUnavailable()).toContain(`no Redis at redis://127.0.0.1:${port}`);
      expect(await serverBackend().available()).toContain(`no Postgres server at 127.0.0.1:${port}`);
      expect(warn).toHaveBeenCalled();
    }
    warn.mockRestore();
  });
});
