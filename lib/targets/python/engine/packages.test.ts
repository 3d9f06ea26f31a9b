import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLockFile } from './packages';

const LOCK = { info: { version: '0.0.0' }, packages: { numpy: { name: 'numpy', file_name: 'numpy.whl', imports: ['numpy'], depends: [], sha256: 'x' } } };

function serve(bodies: Record<string, unknown>) {
  vi.stubGlobal('fetch', async (url: string) => {
    if (!(url in bodies)) return new Response('missing', { status: 404 });
    return new Response(JSON.stringify(bodies[url]), { status: 200 });
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('readLockFile', () => {
  it('reads the package source\'s lock file, keeping fields it does not know', async () => {
    serve({ 'https://mirror/lock.json': LOCK });
    const lock = await readLockFile(['https://mirror/lock.json', 'https://core/lock.json']);
    expect(lock.packages.numpy).toMatchObject({ name: 'numpy', sha256: 'x' });
  });

  it('falls back to the core\'s copy when the source\'s is missing or malformed', async () => {
    serve({ 'https://mirror/lock.json': { packages: { numpy: { name: 'numpy' } } }, 'https://core/lock.json': LOCK });
    const lock = await readLockFile(['https://mirror/lock.json', 'https://core/lock.json']);
    expect(Object.keys(lock.packages)).toEqual(['numpy']);
  });

  it('names every URL it tried when none can be read', async () => {
    serve({});
    await expect(readLockFile(['https://mirror/lock.json', 'https://core/lock.json'])).rejects.toThrow(/mirror\/lock\.json: HTTP 404.*core\/lock\.json: HTTP 404/);
  });
});
