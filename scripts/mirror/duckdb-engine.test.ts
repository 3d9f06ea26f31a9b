import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { duckdbExtensionPath } from '../../lib/package-sources/layout.mjs';
import { extensionSettings } from '../../lib/targets/sql/engine/extension-settings';
import { mirrorDuckdbExtensions } from './duckdb.mjs';
import { directoryRoute, fakeExtension, startServer, type TestServer } from './test-support';

/**
 * The installed DuckDB-wasm engine itself, given the app's extension settings pointed at a mirror
 * this command wrote, asks that mirror for exactly the files it holds, and gets them: the engine
 * checks their signature (made up here, so it refuses them), which it can only do with their bytes.
 * One engine start (seconds) for the whole file.
 */
const servers: TestServer[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-duckdb-engine-'));

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a mirror made by npm run mirror -- duckdb', () => {
  it('is where the installed DuckDB-wasm, set up as the app sets it up, fetches Parquet, JSON and Excel support from', async () => {
    // The engine's Node runtime keeps fetched extensions under $HOME/.duckdb: an empty home each run.
    const child = spawn(process.execPath, [path.resolve('scripts/mirror/duckdb-child.mjs')], { env: { ...process.env, HOME: path.join(dir, 'home') }, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const nextLine = async (): Promise<string> => {
        const line = await lines.next();
        if (line.done) throw new Error('the DuckDB-wasm process ended without answering');
        return line.value;
      };
      const facts = JSON.parse(await nextLine()) as { version: string; platform: string };
      expect(facts.version).toMatch(/^v\d+\.\d+\.\d+$/);
      expect(facts.platform).toBe('wasm_eh');

      const names = ['parquet', 'json', 'excel'];
      const source = await startServer((pathname) => {
        const name = names.find((candidate) => pathname === `/ext/${duckdbExtensionPath(facts.version, facts.platform, candidate)}`);
        return name ? fakeExtension(name) : undefined;
      });
      servers.push(source);
      const out = path.join(dir, 'duckdb-extensions');
      await mirrorDuckdbExtensions({ source: `${source.origin}/ext`, out, engine: facts });
      const mirror = await startServer(directoryRoute('/duckdb-extensions/', out));
      servers.push(mirror);

      // The app never lets the engine fetch on its own (autoloading off): the bridge says LOAD once it saw the file is there.
      const queries = ["SELECT * FROM read_parquet('/data/sales.parquet')", 'LOAD parquet', 'LOAD json', 'LOAD excel'];
      child.stdin.write(`${JSON.stringify({ statements: extensionSettings(`${mirror.origin}/duckdb-extensions`), queries })}\n`);
      const results = JSON.parse(await nextLine()) as { query: string; error: string | null }[];

      // It asked for these and nothing else, and the mirror had each (its Node runtime would also
      // take a 404's body for an extension and refuse that: what was answered is what counts).
      const expected = names.map((name) => `/duckdb-extensions/${facts.version}/wasm_eh/${name}.duckdb_extension.wasm`).sort();
      expect([...mirror.requests].sort()).toEqual(expected);
      expect([...mirror.answered].sort()).toEqual(expected);
      // read_parquet before the LOAD fetched nothing: it names the extension to load instead.
      expect(results[0].error).toMatch(/parquet/);
      for (const result of results.slice(1)) expect(result.error).toMatch(/signature is either missing or invalid/);
    } finally {
      child.kill();
    }
  }, 120_000);
});
