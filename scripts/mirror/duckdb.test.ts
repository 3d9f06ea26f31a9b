import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbExtensionUrl } from '../../lib/package-sources/layout.mjs';
import { mirrorDuckdbExtensions } from './duckdb.mjs';
import { MANIFEST_FILE } from './manifest.mjs';
import { directoryRoute, fakeExtension, startServer, unusedOrigin, type Reply, type TestServer } from './test-support';
import { extensionProblem } from './wasm-extension.mjs';

// The engine's facts are given here (starting DuckDB-wasm takes seconds; duckdb-engine.test.ts does it).
const engine = { version: 'v1.4.3', platform: 'wasm_eh' };
const PREFIX = '/ext/v1.4.3/wasm_eh/';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const signed = fakeExtension('whole');
/** The fake extension repository: file name under PREFIX → what it answers. */
const served = new Map<string, Reply>([
  ['parquet.duckdb_extension.wasm', fakeExtension('parquet')],
  ['json.duckdb_extension.wasm', fakeExtension('json')],
  ['excel.duckdb_extension.wasm', fakeExtension('excel')],
  ['unsigned.duckdb_extension.wasm', fakeExtension('unsigned', false)],
  ['errorpage.duckdb_extension.wasm', Buffer.from('<html><body>Access denied</body></html>')],
  ['truncated.duckdb_extension.wasm', signed.subarray(0, signed.length - 100)],
  ['cut.duckdb_extension.wasm', 'cut'],
]);

let source: TestServer;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-duckdb-test-'));
  source = await startServer((pathname) => (pathname.startsWith(PREFIX) ? served.get(pathname.slice(PREFIX.length)) : undefined));
});

afterAll(async () => {
  await source.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (out: string, extensions?: string[], acceptChanges = false) => mirrorDuckdbExtensions({ source: `${source.origin}/ext`, out, extensions, engine, acceptChanges });
const snapshot = (out: string) =>
  fs
    .readdirSync(out, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => [name, fs.statSync(path.join(out, name)).isFile() ? sha256(fs.readFileSync(path.join(out, name))) : 'dir']);

describe('npm run mirror -- duckdb', () => {
  it('mirrors the extensions the app reads with (parquet, json, excel) where DuckDB-wasm asks for them', async () => {
    const out = path.join(dir, 'happy');
    const result = await run(out);
    expect(result.files.map((file) => file.path)).toEqual(['v1.4.3/wasm_eh/parquet.duckdb_extension.wasm', 'v1.4.3/wasm_eh/json.duckdb_extension.wasm', 'v1.4.3/wasm_eh/excel.duckdb_extension.wasm']);
    expect(fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).sort()).toEqual([
      MANIFEST_FILE,
      'v1.4.3',
      'v1.4.3/wasm_eh',
      'v1.4.3/wasm_eh/excel.duckdb_extension.wasm',
      'v1.4.3/wasm_eh/json.duckdb_extension.wasm',
      'v1.4.3/wasm_eh/parquet.duckdb_extension.wasm',
    ]);
    // Served as a web server would, it answers the URLs DuckDB builds from RUNPAD_DUCKDB_EXTENSION_URL.
    const mirror = await startServer(directoryRoute('/duckdb-extensions/', out));
    try {
      for (const name of ['parquet', 'json', 'excel']) {
        const response = await fetch(duckdbExtensionUrl(`${mirror.origin}/duckdb-extensions`, engine.version, engine.platform, name));
        expect(Buffer.from(await response.arrayBuffer())).toEqual(served.get(`${name}.duckdb_extension.wasm`));
      }
    } finally {
      await mirror.close();
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(out, MANIFEST_FILE), 'utf8'));
    expect(manifest).toMatchObject({ kind: 'duckdb-extensions', source: `${source.origin}/ext`, duckdbVersion: 'v1.4.3', platform: 'wasm_eh' });
    const json = served.get('json.duckdb_extension.wasm') as Buffer;
    expect(manifest.files).toContainEqual({ path: 'v1.4.3/wasm_eh/json.duckdb_extension.wasm', sha256: sha256(json), bytes: json.length });
  });

  it.each([
    ['a file without DuckDB\'s signature', 'unsigned', "is not a DuckDB extension: its last section is not DuckDB's signature (duckdb_signature)"],
    ['an error page', 'errorpage', 'is not a DuckDB extension: it is not a WebAssembly module'],
    ['a truncated module', 'truncated', 'is not a DuckDB extension: it is truncated'],
    ['a missing extension', 'spatial', `${PREFIX}spatial.duckdb_extension.wasm: HTTP 404 (not found)`],
    ['an interrupted download', 'cut', 'cut.duckdb_extension.wasm: download interrupted'],
    ['a name that is not an extension', '../json', 'not an extension name: ../json'],
  ])('fails in words on %s and leaves the previous mirror untouched', async (_, name, message) => {
    const out = path.join(dir, `keep-${name.replace(/\W/g, '')}`);
    await run(out, ['json']);
    const before = snapshot(out);
    await expect(run(out, ['parquet', name])).rejects.toThrow(message);
    expect(snapshot(out)).toEqual(before);
    expect(fs.readdirSync(dir).filter((entry) => entry.includes('.partial-') || entry.includes('.previous-'))).toEqual([]);
  });

  it('fails in words when the source cannot be reached', async () => {
    const origin = await unusedOrigin();
    const out = path.join(dir, 'unreachable');
    await expect(mirrorDuckdbExtensions({ source: origin, out, engine })).rejects.toThrow(`${origin}/v1.4.3/wasm_eh/parquet.duckdb_extension.wasm cannot be reached (ECONNREFUSED)`);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('notices an extension that changed at the source (no checksum is published) and takes it only when told to', async () => {
    const out = path.join(dir, 'drift');
    await run(out, ['json']);
    const original = served.get('json.duckdb_extension.wasm') as Buffer;
    const republished = fakeExtension('json, rebuilt');
    served.set('json.duckdb_extension.wasm', republished);
    try {
      await expect(run(out, ['json'])).rejects.toThrow(`v1.4.3/wasm_eh/json.duckdb_extension.wasm (sha256 was ${sha256(original)}, now ${sha256(republished)})`);
      expect(fs.readFileSync(path.join(out, 'v1.4.3/wasm_eh/json.duckdb_extension.wasm'))).toEqual(original);
      expect((await run(out, ['json'], true)).changed).toEqual(['v1.4.3/wasm_eh/json.duckdb_extension.wasm']);
      expect(fs.readFileSync(path.join(out, 'v1.4.3/wasm_eh/json.duckdb_extension.wasm'))).toEqual(republished);
    } finally {
      served.set('json.duckdb_extension.wasm', original);
    }
  });

  it('checks the shape of an extension module', () => {
    expect(extensionProblem(fakeExtension('ok'))).toBeNull();
    expect(extensionProblem(Buffer.concat([fakeExtension('ok'), Buffer.from([0x01, 0x00])]))).toMatch(/last section is not/);
    expect(extensionProblem(Buffer.alloc(0))).toMatch(/not a WebAssembly module/);
  });
});
