// Copies DuckDB-wasm's engine into public/duckdb/<version>/ and bundles the module that loads it
// beside it: the blocking (same-thread) bindings with the apache-arrow functions the bridge
// (lib/targets/sql/engine/bridge.ts) uses, so the Python worker's own script stays small. Served by the app
// itself under a versioned path, cached as immutable (next.config.ts). Cheap when nothing changed.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { writeOutputs } from './write-outputs.mjs';
import { DUCKDB_MODULE_FILE, DUCKDB_WASM_FILE, duckdbDistDir, duckdbPackageVersion } from './duckdb-assets.mjs';

const target = path.resolve('public/duckdb', duckdbPackageVersion);
fs.mkdirSync(target, { recursive: true });

const from = path.join(duckdbDistDir, DUCKDB_WASM_FILE);
const to = path.join(target, DUCKDB_WASM_FILE);
const src = fs.statSync(from);
const dst = fs.existsSync(to) ? fs.statSync(to) : null;
if (!dst || dst.size !== src.size || dst.mtimeMs < src.mtimeMs) fs.copyFileSync(from, to);

writeOutputs(
  await esbuild.build({
  write: false,
  stdin: {
    contents: [
      `export { createDuckDB, BROWSER_RUNTIME, VoidLogger, DuckDBDataProtocol } from ${JSON.stringify(path.join(duckdbDistDir, 'duckdb-browser-blocking.mjs'))};`,
      "export { tableFromIPC } from 'apache-arrow';",
    ].join('\n'),
    resolveDir: path.resolve('.'),
    loader: 'js',
  },
  outfile: path.join(target, DUCKDB_MODULE_FILE),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
  }),
);
console.log(`duckdb-wasm ${duckdbPackageVersion}: engine and module in public/duckdb/${duckdbPackageVersion}/`);
