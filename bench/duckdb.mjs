// DuckDB as Runpad's SQL engine: DuckDB-wasm's blocking bindings (what the Python worker runs,
// lib/targets/sql/engine/bridge.ts) against native DuckDB (@duckdb/node-api) on one thread, same machine,
// same run, same 1,000,000-row CSV (bench/targets-data.mjs). Also the price of the alternative
// placement (DuckDB in a worker of its own, Python calling it over a SharedArrayBuffer bridge):
// the file's bytes copied to that worker and one synchronous round trip.
// Writes its section of bench/RESULTS-duckdb.md (bench/duckdb-browser.mjs writes the browser one).
// Usage: node bench/duckdb.mjs [--rows N] [--repeat N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { loadCsv, nativeRun, QUERY } from './duckdb-native.mjs';
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
const LOAD = (file) => loadCsv('sales', file);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-duckdb-bench-'));
const csvPath = path.join(dir, 'sales.csv');
const csv = writeSalesCsv(csvPath, ROWS);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (task) => {
  const start = performance.now();
  const value = await task();
  return [performance.now() - start, value];
};

// --- wasm: the blocking bindings the worker uses --------------------------------------------------
const wasm = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
const distDir = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
const bytes = new Uint8Array(fs.readFileSync(csvPath));
async function wasmRun() {
  const [coldStartMs, db] = await time(async () => {
    const bundle = { mainModule: path.join(distDir, 'duckdb-eh.wasm'), mainWorker: '' };
    const instance = await wasm.createDuckDB({ mvp: bundle, eh: bundle }, new wasm.VoidLogger(), wasm.NODE_RUNTIME);
    await instance.instantiate(() => undefined);
    instance.open({ query: { castDecimalToDouble: true } });
    return instance;
  });
  const conn = db.connect();
  conn.query('SET threads = 1');
  // In Node the file is handed over as a buffer (copied into DuckDB's heap, counted here); in the
  // browser DuckDB reads ranges straight from Pyodide's file system instead.
  const [firstMs, first] = await time(() => {
    db.registerFileBuffer('/data/sales.csv', bytes);
    conn.query(LOAD('/data/sales.csv'));
    return conn.query(QUERY).toArray().map((row) => row.toJSON());
  });
  const [secondMs] = await time(() => conn.query(QUERY).toArray());
  conn.close();
  return { coldStartMs, firstMs, secondMs, first };
}

// --- the other placement's extra costs: a copy to another worker, a synchronous round trip --------
async function bridgeCosts() {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (m) => {
       if (m.signal) { Atomics.store(m.signal, 0, 1); Atomics.notify(m.signal, 0); return; }
       parentPort.postMessage(m.bytes.byteLength);
     });`,
    { eval: true },
  );
  const reply = () => new Promise((resolve) => worker.once('message', resolve));
  const copies = [];
  for (let i = 0; i < REPEAT; i += 1) {
    const [ms] = await time(async () => {
      worker.postMessage({ bytes }); // structured clone: the whole file copied
      await reply();
    });
    copies.push(ms);
  }
  const trips = [];
  for (let i = 0; i < 20; i += 1) {
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const start = performance.now();
    worker.postMessage({ signal });
    Atomics.wait(signal, 0, 0, 5_000);
    trips.push(performance.now() - start);
  }
  await worker.terminate();
  return { copyMs: median(copies), roundTripMs: median(trips) };
}

const native = [];
const browserEngine = [];
for (let i = 0; i < REPEAT; i += 1) {
  native.push(await nativeRun(csvPath));
  browserEngine.push(await wasmRun());
  process.stdout.write('.');
}
const bridge = await bridgeCosts();
process.stdout.write('\n');

const sameAnswer =
  JSON.stringify(native[0].first.map((r) => [r.region, Number(r.n)])) === JSON.stringify(browserEngine[0].first.map((r) => [r.region, Number(r.n)]));
const n = { first: median(native.map((r) => r.firstMs)), second: median(native.map((r) => r.secondMs)) };
const w = {
  cold: median(browserEngine.map((r) => r.coldStartMs)),
  first: median(browserEngine.map((r) => r.firstMs)),
  second: median(browserEngine.map((r) => r.secondMs)),
};
const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const load = os.loadavg()[0].toFixed(1);
const lines = [
  '## In Node: DuckDB-wasm\'s blocking bindings against native DuckDB',
  '',
  `Written by \`node bench/duckdb.mjs\` on ${new Date().toISOString()} (Node ${process.version}, ${os.cpus().length} cores, load average ${load} at the end; other work on the machine inflates every number, the ratios less).`,
  `Input: ${ROWS.toLocaleString('en-US')}-row sales CSV, ${(csv.bytes / 1e6).toFixed(1)} MB. Query: \`${QUERY}\`. Medians of ${REPEAT}.`,
  '',
  '| measurement | DuckDB-wasm, blocking API (as in the worker) | native DuckDB, 1 thread | ratio |',
  '| --- | ---: | ---: | ---: |',
  `| first run: load the CSV into a table + GROUP BY | ${ms(w.first)} | ${ms(n.first)} | ${ratio(w.first, n.first)} |`,
  `| second run on the loaded table | ${ms(w.second)} | ${ms(n.second)} | ${ratio(w.second, n.second)} |`,
  `| cold start (instantiate the engine, already downloaded) | ${ms(w.cold)} | — | — |`,
  '',
  `Same answer (regions and counts): ${sameAnswer ? 'yes' : 'NO'}.`,
  '',
  '### Where DuckDB runs',
  '',
  `DuckDB runs inside the Python worker, through DuckDB-wasm's blocking bindings. The alternative, a worker of its own with Python blocking on a SharedArrayBuffer, would add per dataset a copy of the file to the other worker (${ms(bridge.copyMs)} for this ${(csv.bytes / 1e6).toFixed(0)} MB file here) and per call a synchronous round trip (${bridge.roundTripMs.toFixed(2)} ms median) plus serialising every result, and keep two wasm heaps' worth of the data. In the Python worker, DuckDB reads the file's bytes where Pyodide already holds them, and Stop still works (queries run as pending queries polled in slices, between which Python sees the interrupt flag).`,
  '',
  'Notes: in Node the CSV is handed to DuckDB-wasm as a buffer (one copy into its heap, included in the first run); in the browser the bridge reads the ranges DuckDB asks for straight from Pyodide\'s file system. The browser adds the page ↔ worker messaging and rendering, measured in bench/RESULTS.md.',
  '',
];
writeSection(new URL('./RESULTS-duckdb.md', import.meta.url), 'node', 'DuckDB: the browser engine against native DuckDB', lines);
fs.rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));
