// Parquet without DuckDB's parquet extension: the kept reader (hyparquet → DuckDB's core CSV
// reader with the column types given, one row group at a time: lib/targets/sql/engine/offline-tables.ts)
// in DuckDB-wasm's blocking bindings (what the Python worker runs), against native DuckDB
// (@duckdb/node-api, one thread) reading the same file with its own Parquet reader. Same machine,
// same run, samples interleaved. The file is the 1,000,000-row sales CSV of bench/targets-data.mjs
// written as Parquet (snappy, DuckDB's default row groups) by native DuckDB.
// Writes its section of bench/RESULTS-formats.md.
// Usage: node bench/formats-offline.mjs [--rows N] [--repeat N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadOfflineReaders, median, time } from './offline-readers.mjs';
import { groupBy } from './duckdb-native.mjs';
import { writeSection } from './results-section.mjs';
import { writeSalesCsv } from './targets-data.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROWS = option('rows', 1_000_000);
const REPEAT = option('repeat', 3);
const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-formats-bench-'));

// The readers as the worker bundles them, for Node.
const readers = await loadOfflineReaders(dir);

const csvPath = path.join(dir, 'sales.csv');
writeSalesCsv(csvPath, ROWS);
const parquetPath = path.join(dir, 'sales.parquet');
{
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`COPY (SELECT * FROM read_csv('${csvPath}')) TO '${parquetPath}' (FORMAT parquet)`);
  conn.closeSync();
  instance.closeSync();
}
const bytes = new Uint8Array(fs.readFileSync(parquetPath));

const wasm = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
const distDir = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
async function wasmRun() {
  const db = await wasm.createDuckDB({ mvp: { mainModule: path.join(distDir, 'duckdb-mvp.wasm'), mainWorker: '' }, eh: { mainModule: path.join(distDir, 'duckdb-eh.wasm'), mainWorker: '' } }, new wasm.VoidLogger(), wasm.NODE_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({ query: { castDecimalToDouble: true } });
  const conn = db.connect();
  conn.query('SET threads = 1');
  conn.query('SET autoinstall_known_extensions = false');
  conn.query('SET autoload_known_extensions = false');
  const connId = conn.useUnsafe((_bindings, id) => id);
  const target = {
    query: (sql) => void conn.query(sql),
    registerBuffer: (name, buffer) => db.registerFileBuffer(name, buffer),
    dropBuffer: (name) => db.dropFile(name),
    insertArrow: (name, stream, create = true) => db.insertArrowFromIPCStream(connId, stream, { name, create }),
  };
  const [load, answer] = await time(() => readers.importTable(target, '/data/sales.parquet', 'parquet', readers.bytesAsFile(bytes)));
  if (!answer.ok) throw new Error(answer.message);
  const [query, table] = await time(() => conn.query(groupBy("'/data/sales.parquet'")));
  const rows = table.toArray().map((row) => `${row.region}:${row.n}`);
  return { load, query, rows };
}

async function nativeRun() {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const [load] = await time(() => conn.run(`CREATE TABLE sales AS SELECT * FROM read_parquet('${parquetPath}')`));
  const [query, reader] = await time(() => conn.runAndReadAll(groupBy('sales')));
  const rows = reader.getRowObjects().map((row) => `${row.region}:${row.n}`);
  conn.closeSync();
  instance.closeSync();
  return { load, query, rows };
}

const samples = { wasm: [], native: [] };
for (let i = 0; i < REPEAT; i += 1) {
  samples.wasm.push(await wasmRun());
  samples.native.push(await nativeRun());
}
const same = JSON.stringify(samples.wasm[0].rows) === JSON.stringify(samples.native[0].rows);
const m = (list, key) => median(list.map((sample) => sample[key]));
const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;
const ratio = (a, b) => `${(a / b).toFixed(1)}×`;
const load = [m(samples.wasm, 'load'), m(samples.native, 'load')];
const query = [m(samples.wasm, 'query'), m(samples.native, 'query')];
const lines = [
  '## Parquet without the parquet extension: the kept reader against native DuckDB',
  '',
  `Written by \`node bench/formats-offline.mjs\` on ${new Date().toISOString()} (Node ${process.version}, 2 cores, 24 GiB, load average ${os.loadavg()[0].toFixed(1)} at the end; other work on the machine inflates every number, the ratios less).`,
  `Input: the ${ROWS.toLocaleString('en-US')}-row sales table of bench/targets-data.mjs as Parquet written by native DuckDB (snappy), ${(bytes.byteLength / 1e6).toFixed(1)} MB. Query: \`${groupBy("'/data/sales.parquet'")}\`. Medians of ${REPEAT}.`,
  '',
  '| measurement | kept reader into DuckDB-wasm (blocking API, as in the worker) | native DuckDB, its Parquet reader, 1 thread | ratio |',
  '| --- | ---: | ---: | ---: |',
  `| read the file into a table | ${ms(load[0])} | ${ms(load[1])} | ${ratio(load[0], load[1])} |`,
  `| GROUP BY on the table | ${ms(query[0])} | ${ms(query[1])} | ${ratio(query[0], query[1])} |`,
  '',
  `Same answer (regions and counts): ${same ? 'yes' : 'NO'}.`,
  '',
  'The kept reader is the offline path only: with DuckDB\'s parquet extension loaded (a mirror), DuckDB reads the file itself. Its cost is the one-time read before the first query; queries after it run on a DuckDB table.',
];
writeSection(path.join(root, 'bench/RESULTS-formats.md'), 'parquet-offline', 'Data formats offline', lines);
fs.rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));
