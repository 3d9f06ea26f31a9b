/**
 * The per-file upload limit is the operator's (RUNPAD_UPLOAD_FILE_BYTES): the server refuses a
 * larger upload by its declared size and by the bytes it actually sends, in words naming the
 * limit, and the page is told the same number (its early refusal and where a dropped file goes).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

async function withLimit(bytes: string) {
  vi.resetModules();
  vi.unstubAllEnvs();
  vi.stubEnv('RUNPAD_UPLOAD_FILE_BYTES', bytes);
  vi.stubEnv('RUNPAD_LOG_LEVEL', 'silent');
  return {
    config: (await import('@/lib/config.server')).getConfig(),
    client: (await import('@/lib/client-config.server')).getClientConfig(),
    uploads: await import('./store-upload.server'),
  };
}
afterEach(() => vi.unstubAllEnvs());

function uploadOf(size: number, declared = size): Request {
  return new Request('https://runpad.example/api/conversations/x/files', {
    method: 'POST',
    headers: { 'x-file-name': encodeURIComponent('ventes été.csv'), 'content-length': String(declared) },
    body: new Uint8Array(size),
    duplex: 'half',
  } as RequestInit);
}

describe('the upload limit an operator sets', () => {
  it('defaults to 100 MB, told to the page as well', async () => {
    vi.stubEnv('RUNPAD_UPLOAD_FILE_BYTES', '');
    vi.resetModules();
    const config = (await import('@/lib/config.server')).getConfig();
    expect(config.uploadFileBytes).toBe(100_000_000);
  });

  it('refuses a declared size over a smaller limit, naming the limit, and takes one at it', async () => {
    const { config, client, uploads } = await withLimit('2000000');
    expect(config.uploadFileBytes).toBe(2_000_000);
    expect(client.uploadFileBytes).toBe(2_000_000);
    let refusal: unknown = null;
    try {
      uploads.uploadRequest(uploadOf(2_000_001));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ code: 'upload:too_large', status: 413, message: '“ventes été.csv” is larger than the 2.0 MB limit per file.' });
    const taken = uploads.uploadRequest(uploadOf(2_000_000));
    expect(taken).toMatchObject({ declared: 2_000_000, maxBytes: 2_000_000, tooLarge: expect.stringContaining('2.0 MB') });
  });

  it('refuses a setting that is not a whole number of bytes, naming it', async () => {
    await expect(withLimit('ten megabytes')).rejects.toThrow(/RUNPAD_UPLOAD_FILE_BYTES/);
    await expect(withLimit('12')).rejects.toThrow(/RUNPAD_UPLOAD_FILE_BYTES/);
  });
});
