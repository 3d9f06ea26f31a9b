import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirror, resolvePackages } from './python.mjs';
import { unusedOrigin } from './test-support';

const files: Record<string, Buffer> = {
  'alpha-1.0-py3-none-any.whl': Buffer.from('alpha wheel bytes'),
  'beta-2.0-py3-none-any.whl': Buffer.from('beta wheel bytes, a little longer'),
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const lock = {
  info: {},
  packages: {
    alpha: { name: 'alpha', version: '1.0', file_name: 'alpha-1.0-py3-none-any.whl', sha256: sha(files['alpha-1.0-py3-none-any.whl']), depends: ['beta'] },
    beta: { name: 'beta', version: '2.0', file_name: 'beta-2.0-py3-none-any.whl', sha256: sha(files['beta-2.0-py3-none-any.whl']), depends: [] },
    gamma: { name: 'gamma', version: '0.1', file_name: 'gamma-0.1-py3-none-any.whl', sha256: '0'.repeat(64), depends: [] },
    broken: { name: 'broken', version: '1', file_name: 'beta-2.0-py3-none-any.whl', sha256: 'f'.repeat(64), depends: [] },
    cut: { name: 'cut', version: '1', file_name: 'cut.whl', sha256: '0'.repeat(64), depends: [] },
  },
};

let server: http.Server;
let source: string;
let dir: string;
let lockPath: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-test-'));
  lockPath = path.join(dir, 'lock.json');
  fs.writeFileSync(lockPath, JSON.stringify(lock));
  server = http.createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '').replace(/^\/pkgs\//, ''));
    if (name === 'cut.whl') {
      // Announces 1000 bytes, sends 10, then drops the connection: an interrupted download.
      response.writeHead(200, { 'content-length': '1000' });
      response.write('0123456789');
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    const body = files[name];
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  source = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/pkgs/`;
});

afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (out: string, packages: string[]) => mirror({ source, out, lock: lockPath, packages });

describe('npm run mirror -- python', () => {
  it('resolves dependencies from the lock file', () => {
    expect(resolvePackages(lock, ['alpha']).map((p) => p.name)).toEqual(['alpha', 'beta']);
    expect(() => resolvePackages(lock, ['nope'])).toThrow('"nope" is not in the lock file');
  });

  it('writes verified wheels and the lock file', async () => {
    const out = path.join(dir, 'happy');
    const result = await run(out, ['alpha']);
    expect(result.packages).toEqual(['alpha', 'beta']);
    expect(fs.readFileSync(path.join(out, 'alpha-1.0-py3-none-any.whl'))).toEqual(files['alpha-1.0-py3-none-any.whl']);
    expect(fs.existsSync(path.join(out, 'beta-2.0-py3-none-any.whl'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'pyodide-lock.json'), 'utf8')).packages.alpha.sha256).toBe(lock.packages.alpha.sha256);
  });

  it.each([
    ['a hash mismatch', ['broken'], 'sha256 mismatch'],
    ['a missing file', ['gamma'], 'HTTP 404'],
    ['an interrupted download', ['cut'], /interrupted|terminated|other side closed|fetch failed/],
  ])('fails loudly on %s and leaves the previous mirror untouched', async (_, packages, message) => {
    const out = path.join(dir, `keep-${packages[0]}`);
    await run(out, ['beta']);
    const before = fs.readdirSync(out).sort();
    await expect(run(out, packages)).rejects.toThrow(message);
    expect(fs.readdirSync(out).sort()).toEqual(before);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  it('fails in words when the source cannot be reached', async () => {
    const origin = await unusedOrigin();
    const out = path.join(dir, 'unreachable');
    await expect(mirror({ source: `${origin}/pkgs/`, out, lock: lockPath, packages: ['beta'] })).rejects.toThrow(`${origin}/pkgs/beta-2.0-py3-none-any.whl cannot be reached (ECONNREFUSED)`);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('refuses to replace a directory that is not a Pyodide mirror', async () => {
    const out = path.join(dir, 'not-a-mirror');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'index.html'), 'keep me');
    await expect(run(out, ['beta'])).rejects.toThrow('is not a Pyodide mirror');
    expect(fs.readdirSync(out)).toEqual(['index.html']);
  });
});
