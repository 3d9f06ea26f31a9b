// Where DuckDB-wasm's files come from and where the app serves them (like pyodide-assets.mjs):
// used by the copy script (lib/config.server.ts reads the same package.json at run time).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);

// The package exports neither its package.json nor the browser's blocking module: found by path.
export const duckdbDistDir = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
export const duckdbPackageVersion = JSON.parse(fs.readFileSync(path.join(duckdbDistDir, '..', 'package.json'), 'utf8')).version;
/** The app's own path for them: a new package version is a new URL (cached as immutable). */
export const duckdbAssetPath = `/duckdb/${duckdbPackageVersion}/`;
/** The engine (exceptions build) and the module that loads it, bundled with apache-arrow. */
export const DUCKDB_WASM_FILE = 'duckdb-eh.wasm';
export const DUCKDB_MODULE_FILE = 'duckdb-blocking.mjs';
