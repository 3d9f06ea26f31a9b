/**
 * DuckDB-wasm's Node build (the browser's engine) set up as the bridge sets it up (its extension
 * settings: no extension ever fetched), with the kept readers' import target over it. For tests
 * that put files into it through lib/targets/sql/engine/offline-tables.ts. DuckDB-wasm and exceljs's tslib
 * set globals as they load: a test file using it stubs `DUCKDB_RUNTIME` first, so it runs apart.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Table } from 'apache-arrow';
import { extensionSettings } from './extension-settings';
import type { ImportTarget } from './offline-tables';
import { resultOf } from './result';

type WasmConnection = { query(sql: string): Table; useUnsafe<R>(callback: (bindings: unknown, conn: number) => R): R };
type WasmDb = {
  instantiate(progress: () => void): Promise<unknown>;
  open(config: object): void;
  connect(): WasmConnection;
  registerFileBuffer(name: string, bytes: Uint8Array): void;
  insertArrowFromIPCStream(conn: number, bytes: Uint8Array, options: { name: string; create?: boolean }): void;
  dropFile(name: string): void;
};
type WasmLibrary = { createDuckDB(bundles: object, logger: unknown, runtime: unknown): Promise<WasmDb>; VoidLogger: new () => unknown; NODE_RUNTIME: unknown };

export type WasmEngine = {
  conn: WasmConnection;
  target: ImportTarget;
  rows(sql: string): unknown[][];
  /** column name → DuckDB's type, of a table or a query */
  types(from: string): Record<string, string>;
};

export async function openWasmEngine(): Promise<WasmEngine> {
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
  const lib = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs') as WasmLibrary;
  const wasm = path.join(dist, 'duckdb-eh.wasm');
  const db = await lib.createDuckDB({ mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: '' }, eh: { mainModule: wasm, mainWorker: '' } }, new lib.VoidLogger(), lib.NODE_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({ query: { castDecimalToDouble: true, castTimestampToDate: false } });
  const conn = db.connect();
  // As the app sets it up: no extension is ever fetched by the engine (the repository is unreachable).
  for (const statement of extensionSettings('http://127.0.0.1:9/unreachable')) conn.query(statement);
  const connId = conn.useUnsafe((_bindings, id) => id);
  const target: ImportTarget = {
    query: (sql) => void conn.query(sql),
    registerBuffer: (name, bytes) => db.registerFileBuffer(name, bytes),
    dropBuffer: (name) => db.dropFile(name),
    insertArrow: (table, stream, create = true) => db.insertArrowFromIPCStream(connId, stream, { name: table, create }),
  };
  const rows = (sql: string) => resultOf(conn.query(sql)).rows;
  const types = (from: string) => Object.fromEntries(rows(`SELECT column_name, column_type FROM (DESCRIBE ${from})`) as [string, string][]);
  return { conn, target, rows, types };
}
