import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveEngineAsset } from './serve-engine-assets.server';
import { acceptedEncodings, engineAssetPath } from './engine-assets.server';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-assets-'));
const wasm = Buffer.alloc(200_000, 'abcdefgh');
let server: http.Server;
let base = '';

/** A raw request: Node's fetch would decode the body and hide what was sent. */
function get(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${pathname}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  fs.mkdirSync(path.join(dir, 'pyodide/1.0'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'workers'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'webr/0.6/vfs/usr'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'pyodide/1.0/engine.wasm'), wasm);
  fs.writeFileSync(path.join(dir, 'pyodide/1.0/engine.wasm.br'), zlib.brotliCompressSync(wasm));
  fs.writeFileSync(path.join(dir, 'pyodide/1.0/engine.wasm.gz'), zlib.gzipSync(wasm));
  fs.writeFileSync(path.join(dir, 'workers/python.worker.mjs'), 'self.onmessage = () => {};');
  fs.writeFileSync(path.join(dir, 'webr/0.6/vfs/usr/lib.rds'), 'library');
  server = http.createServer((request, response) => {
    if (!serveEngineAsset(request, response, dir)) response.writeHead(418).end('next');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('engine files', () => {
  it('sends the Brotli copy to a browser that accepts it, gzip to one that takes only gzip, the file to the rest, each whole and decodable', async () => {
    const br = await get('/pyodide/1.0/engine.wasm', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(wasm)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    const gzip = await get('/pyodide/1.0/engine.wasm', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).equals(wasm)).toBe(true);
    const plain = await get('/pyodide/1.0/engine.wasm');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(wasm)).toBe(true);
    for (const response of [br, gzip, plain]) {
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({ 'content-type': 'application/wasm', 'cache-control': 'public, max-age=31536000, immutable', 'cross-origin-embedder-policy': 'require-corp', 'cross-origin-resource-policy': 'same-origin' });
      expect(response.headers.vary).toContain('Accept-Encoding');
    }
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
  });

  it('answers 304 to the ETag it gave, and HEAD with the headers only', async () => {
    const first = await get('/workers/python.worker.mjs', { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-security-policy']).toContain("default-src 'none'");
    const again = await get('/workers/python.worker.mjs', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/pyodide/1.0/engine.wasm', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('leaves everything else to Next: other paths, missing files, webR library files, methods other than GET and HEAD, dot-segments', async () => {
    for (const pathname of ['/api/health', '/pyodide/1.0/missing.wasm', '/webr/0.6/vfs/usr/lib.rds', '/pyodide/1.0/../../etc/passwd', '/pyodide/1.0/%2e%2e', '/pyodide/engine.wasm']) {
      expect((await get(pathname)).status).toBe(418);
    }
    expect((await get('/pyodide/1.0/engine.wasm', {}, 'POST')).status).toBe(418);
  });
});

describe('engineAssetPath and acceptedEncodings', () => {
  it('takes only plain names at each root\'s depth', () => {
    expect(engineAssetPath('/duckdb/1.32.0/duckdb-eh.wasm')?.segments).toEqual(['duckdb', '1.32.0', 'duckdb-eh.wasm']);
    expect(engineAssetPath('/workers/python.worker.mjs')?.root.immutable).toBe(false);
    expect(engineAssetPath('/workers/sub/x.mjs')).toBeNull();
    expect(engineAssetPath('/webr/0.6.0/vfs/usr/lib/R')).toBeNull();
    expect(engineAssetPath('/pyodide/.hidden/x')).toBeNull();
  });

  it('reads q=0 as a refusal', () => {
    expect([...acceptedEncodings('gzip;q=1.0, br;q=0, identity')]).toEqual(['gzip', 'identity']);
  });
});
