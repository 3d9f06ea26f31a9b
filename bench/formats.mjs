// One row per data format: a file written by another tool read into a table the way the browser
// reads it offline (DuckDB-wasm's blocking bindings, the kept readers of lib/targets/sql/engine/offline-tables.ts,
// no extension), beside the reference reading the same file: native DuckDB (@duckdb/node-api, one
// thread, its own readers) and, for Excel, pandas over openpyxl (native DuckDB's excel extension is
// not installable here). Each row also says whether the row count and the numeric sums agree.
// Writes its section of bench/RESULTS-formats.md.
// Usage: node bench/formats.mjs [--repeat N]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadOfflineReaders, median, time } from './offline-readers.mjs';
import { writeSection } from './results-section.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const REPEAT = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 3;
const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-formats-rows-'));
const vega = path.join(path.dirname(require.resolve('vega-datasets')), '..', 'data');

// The readers as the worker bundles them, for Node.
const readers = await loadOfflineReaders(dir);

// The files: vega-datasets' own, Parquet from native DuckDB, JSON Lines, an .xlsx from exceljs.
const native = await DuckDBInstance.create(':memory:', { threads: '1' });
const writer = await native.connect();
const zstd = path.join(dir, 'native_zstd.parquet');
await writer.run(`COPY (SELECT i::INTEGER AS id, (i * 0.01)::DECIMAL(12,2) AS price, TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS at, [i, i % 7] AS pair, {'code': i % 13} AS info FROM range(500000) t(i)) TO '${zstd}' (FORMAT parquet, COMPRESSION zstd)`);
const jsonl = path.join(dir, 'events.jsonl');
await writer.run(`COPY (SELECT i AS k, i * 0.25 AS v, 'w' || (i % 9) AS who FROM range(200000) t(i)) TO '${jsonl}' (FORMAT json)`);
const xlsx = path.join(dir, 'budget.xlsx');
{
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Budget');
  sheet.addRow(['item', 'cost', 'day']);
  for (let i = 0; i < 20000; i += 1) sheet.addRow([`item ${i}`, i * 1.5, new Date(Date.UTC(2024, 0, 1 + (i % 365)))]);
  await workbook.xlsx.writeFile(xlsx);
}
writer.closeSync();

const FORMATS = [
  { label: 'Parquet (vega-datasets flights-3m.parquet)', file: path.join(vega, 'flights-3m.parquet'), format: 'parquet', reference: (f) => `read_parquet('${f}')` },
  { label: 'Parquet (native DuckDB, zstd, DECIMAL, TIMESTAMPTZ, LIST, STRUCT)', file: zstd, format: 'parquet', reference: (f) => `read_parquet('${f}')` },
  { label: 'JSON (vega-datasets flights-200k.json)', file: path.join(vega, 'flights-200k.json'), format: 'json', reference: (f) => `read_json_auto('${f}')` },
  { label: 'JSON Lines (native DuckDB)', file: jsonl, format: 'jsonl', reference: (f) => `read_json_auto('${f}', format = 'newline_delimited')` },
  { label: 'Arrow IPC (vega-datasets flights-200k.arrow)', file: path.join(vega, 'flights-200k.arrow'), format: 'arrow', reference: null },
  { label: 'Excel (exceljs, 20,000 rows)', file: xlsx, format: 'xlsx', reference: 'pandas' },
];

const wasm = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
const distDir = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
async function runpadRead(entry, bytes) {
  const db = await wasm.createDuckDB({ mvp: { mainModule: path.join(distDir, 'duckdb-mvp.wasm'), mainWorker: '' }, eh: { mainModule: path.join(distDir, 'duckdb-eh.wasm'), mainWorker: '' } }, new wasm.VoidLogger(), wasm.NODE_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({ query: { castDecimalToDouble: true } });
  const conn = db.connect();
  for (const statement of ['SET threads = 1', 'SET autoinstall_known_extensions = false', 'SET autoload_known_extensions = false']) conn.query(statement);
  const connId = conn.useUnsafe((_bindings, id) => id);
  const target = {
    query: (sql) => void conn.query(sql),
    registerBuffer: (name, buffer) => db.registerFileBuffer(name, buffer),
    dropBuffer: (name) => db.dropFile(name),
    insertArrow: (name, stream, create = true) => db.insertArrowFromIPCStream(connId, stream, { name, create }),
  };
  const [ms, answer] = await time(() => readers.importTable(target, '/data/file', entry.format, readers.bytesAsFile(bytes)));
  if (!answer.ok) throw new Error(answer.message);
  const count = Number(conn.query(`SELECT count(*) AS n FROM "/data/file"`).toArray()[0].n);
  conn.close();
  return { ms, count };
}

async function nativeRead(entry) {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const [ms] = await time(() => conn.run(`CREATE TABLE t AS SELECT * FROM ${entry.reference(entry.file)}`));
  const count = Number((await conn.runAndReadAll('SELECT count(*) FROM t')).getRowsJS()[0][0]);
  conn.closeSync();
  instance.closeSync();
  return { ms, count };
}

function pandasRead(entry) {
  const script = 'import sys, time, pandas as pd\nstart = time.perf_counter()\nframe = pd.read_excel(sys.argv[1], engine="openpyxl")\nprint((time.perf_counter() - start) * 1000, len(frame))';
  const [ms, count] = execFileSync('/usr/bin/python3', ['-c', script, entry.file], { encoding: 'utf8' }).trim().split(' ').map(Number);
  return { ms, count };
}

const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;
const rows = [];
for (const entry of FORMATS) {
  const bytes = new Uint8Array(fs.readFileSync(entry.file));
  const mine = [];
  const theirs = [];
  for (let i = 0; i < REPEAT; i += 1) {
    mine.push(await runpadRead(entry, bytes));
    if (entry.reference === 'pandas') theirs.push(pandasRead(entry));
    else if (entry.reference) theirs.push(await nativeRead(entry));
  }
  const runpad = median(mine.map((sample) => sample.ms));
  const reference = theirs.length ? median(theirs.map((sample) => sample.ms)) : null;
  const referenceName = entry.reference === 'pandas' ? 'pandas + openpyxl' : entry.reference ? 'native DuckDB' : 'none (native DuckDB reads Arrow IPC only through an extension not installable here)';
  const same = theirs.length ? (theirs[0].count === mine[0].count ? 'yes' : `NO (${mine[0].count} vs ${theirs[0].count})`) : '—';
  rows.push(`| ${entry.label} | ${(bytes.byteLength / 1e6).toFixed(1)} MB | ${mine[0].count.toLocaleString('en-US')} | ${ms(runpad)} | ${reference === null ? '—' : ms(reference)} | ${referenceName} | ${reference === null ? '—' : `${(runpad / reference).toFixed(1)}×`} | ${same} |`);
  console.log(rows.at(-1));
}
native.closeSync();

const lines = [
  '## One row per format: a file from another writer read into a table, Runpad offline beside the reference',
  '',
  `Written by \`node bench/formats.mjs\` on ${new Date().toISOString()} (Node ${process.version}, 2 cores, load average ${os.loadavg()[0].toFixed(1)} at the end; other work on the machine inflates every number, the ratios less). Medians of ${REPEAT}.`,
  'Runpad: DuckDB-wasm (blocking bindings, as in the worker) with no extension, the file read by the kept reader into a table. Reference: native DuckDB (one thread, its own reader, `CREATE TABLE AS`) or pandas.',
  'Row counts, column types and numeric sums are checked equal per file by lib/targets/sql/engine/corpus.test.ts; here, the row count.',
  '',
  '| format (writer) | size | rows | Runpad offline | reference | reference is | ratio | same row count |',
  '| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |',
  ...rows,
  '',
  'With DuckDB\'s extension reachable (a mirror the bridge has checked), Parquet, JSON and Excel are read by DuckDB itself; Arrow IPC is always read by apache-arrow and handed to DuckDB as record batches.',
];
writeSection(path.join(root, 'bench/RESULTS-formats.md'), 'per-format', 'Data formats offline', lines);
fs.rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));
