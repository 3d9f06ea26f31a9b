// The installed DuckDB-wasm engine, started under Node, asked what names its extension directory:
// its version (getVersion(), "v1.4.3") and platform ("wasm_eh"). The npm package's version (1.32.0)
// is not DuckDB's, and the engine's version is written nowhere else; starting it takes seconds.
// The engine file is the one the app serves (DUCKDB_WASM_FILE), so the platform is the browser's.
import { createRequire } from 'node:module';
import path from 'node:path';
import { DUCKDB_WASM_FILE, duckdbDistDir } from '../duckdb-assets.mjs';

const require = createRequire(import.meta.url);

/** DuckDB-wasm's blocking Node bindings over the app's engine file, opened with defaults. */
export async function openEngine() {
  const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
  const engine = path.join(duckdbDistDir, DUCKDB_WASM_FILE);
  // Both bundles name the app's engine, as the browser's bridge does (lib/targets/sql/engine/bridge.ts).
  const bundles = { mvp: { mainModule: engine, mainWorker: '' }, eh: { mainModule: engine, mainWorker: '' } };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({});
  return db;
}

/** The version and platform of an opened engine, as they appear in its extension URLs. */
export function engineFacts(db) {
  const connection = db.connect();
  try {
    const platform = String(connection.query('PRAGMA platform').toArray()[0].platform);
    return { version: db.getVersion(), platform };
  } finally {
    connection.close();
  }
}

export async function installedEngineFacts() {
  return engineFacts(await openEngine());
}
