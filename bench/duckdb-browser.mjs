#!/usr/bin/env node
// `node bench/duckdb-browser.mjs` (after `npm run build`): DuckDB as the app runs it, in Chromium,
// against native DuckDB on one thread (@duckdb/node-api) and a bare DuckDB-wasm worker, all in the
// same run on the same generated CSVs. Through the app means: drop the CSV on the conversation, the
// fake model makes the `sql` (or `python`) call, timed from the app's `runpad:code-complete` mark
// until the cell's result is on the page. Writes bench/out/<date>-duckdb-browser.json and the
// browser section of bench/RESULTS-duckdb.md. Benchmarks report; they never fail on a timing.
// BENCH_REPEAT (default 3) sets the repetitions; each is a fresh browser context (a first visit).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { duckdbAssetPath, duckdbPackageVersion } from '../scripts/duckdb-assets.mjs';
import { dropFile, openApp, runCell } from './duckdb-browser-page.mjs';
import { writeBrowserResults } from './duckdb-browser-report.mjs';
import { bareRun, startBareDuckdbServer } from './duckdb-browser-bare.mjs';
import { groupBy, nativeRun } from './duckdb-native.mjs';
import { longTasksBetween, recordLongTasks } from './main-thread.mjs';
import { releaseAll, requireBuild, uptime, writeOut } from './harness.mjs';
import { startApp } from './servers.mjs';
import { REGIONS, writeSalesCsv } from './targets-data.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
// Ports 9300–9320 are this benchmark's (far from the e2e suite's and the other benches').
const APP_PORT = 9300;
const FAKE_PORT = 9310;
const BARE_PORT = 9320;
const APP = `http://127.0.0.1:${APP_PORT}`;
/** The 100 MB case: as many rows as fit under the upload limit (100,000,000 bytes, lib/files/accept.ts). */
const BIG_ROWS = 2_740_000;

requireBuild(['.next/BUILD_ID', path.join('public', duckdbAssetPath, 'duckdb-eh.wasm')]);

// The CSVs (deterministic: bench/targets-data.mjs) in a temp dir of their own, removed at the end.
// sales_py.csv has sales.csv's bytes under another name: a fresh table for Python's first sql().
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-duckdb-browser-'));
const data = path.join(tmp, 'data');
fs.mkdirSync(data);
const csv = { path: path.join(data, 'sales.csv'), ...writeSalesCsv(path.join(data, 'sales.csv')) };
const pyCsv = { ...csv, path: path.join(data, 'sales_py.csv') };
fs.copyFileSync(csv.path, pyCsv.path);
const big = { path: path.join(data, 'sales_100mb.csv'), ...writeSalesCsv(path.join(data, 'sales_100mb.csv'), BIG_ROWS) };
if (big.bytes > 100_000_000) throw new Error(`the big CSV is ${big.bytes} bytes, over the upload limit`);

/** Python's sql(): the same GROUP BY, the answer printed for the check against native DuckDB. */
const pythonSql = (table) =>
  [
    'import json',
    `rows = sql(${JSON.stringify(groupBy(table))})`,
    'print("answer", json.dumps([[r["region"], int(r["n"])] for r in rows]))',
  ].join('\n');

/**
 * Where a run's time goes inside the worker, measured in the run itself: a Python cell (run before,
 * in the same interpreter) wraps the SQL cell's entry point and the bridge's statement call with
 * timers, and a cell after each measured run prints and clears what they logged.
 */
const INSTRUMENT = [
  'import time',
  'import runpad.duckdb_bridge as _bench_bridge, runpad.sql as _bench_sql',
  '_bench_log = []',
  'def _bench_timed(kind, call):',
  '    def timed(*args, **kwargs):',
  '        t0 = time.perf_counter()',
  '        try:',
  '            return call(*args, **kwargs)',
  '        finally:',
  '            _bench_log.append([kind, str(args[0])[:24] if args else "", (time.perf_counter() - t0) * 1000])',
  '    return timed',
  '_bench_bridge.execute = _bench_timed("statement", _bench_bridge.execute)',
  '_bench_sql.run_sql = _bench_timed("run_sql", _bench_sql.run_sql)',
  // The worker hands Python the bridge the moment DuckDB is ready: logged as epoch ms (the wall
  // clock, Date.now() underneath), compared with the page's timeOrigin + performance.now().
  '_bench_set_bridge = _bench_bridge.set_bridge',
  'def _bench_ready(bridge):',
  '    _bench_log.append(["ready", "", time.time() * 1000])',
  '    return _bench_set_bridge(bridge)',
  '_bench_bridge.set_bridge = _bench_ready',
].join('\n');
const READ_LOG = 'import json\nprint("log", json.dumps(_bench_log))\n_bench_log.clear()';

/** The logged times of the last run: its whole SQL cell in Python, DuckDB's load, its other statements. */
async function workerTimes(page, fake) {
  const log = jsonAfter((await runCell(page, fake, 'python', READ_LOG)).text, 'log');
  const sum = (test) => log.filter(test).reduce((total, [, , ms]) => total + ms, 0);
  return {
    pythonMs: sum(([kind]) => kind === 'run_sql'),
    loadMs: sum(([kind, text]) => kind === 'statement' && text.startsWith('CREATE OR REPLACE TABLE')),
    statementsMs: sum(([kind]) => kind === 'statement'),
    readyEpochMs: log.find(([kind]) => kind === 'ready')?.[2] ?? null,
  };
}

const jsonAfter = (text, label) => JSON.parse(text.slice(text.indexOf(`${label} `) + label.length + 1).split('\n')[0].match(/^[[{].*[\]}]/)[0]);

async function appRun(browser, fake) {
  const context = await browser.newContext();
  try {
    // A first visit: nothing of DuckDB's in the HTTP cache; the interpreter is ready before the need.
    const page = await openApp(context, APP);
    await recordLongTasks(page);
    await runCell(page, fake, 'python', INSTRUMENT);
    const coldFirst = await runCell(page, fake, 'sql', 'SELECT 42 AS answer');
    coldFirst.worker = await workerTimes(page, fake);
    const warm = await runCell(page, fake, 'sql', 'SELECT 42 AS answer');
    // Clears the log. No run may come between a drop and the measured run: a run writes /data first.
    await workerTimes(page, fake);
    await dropFile(page, csv.path, csv.sha256);
    const first = await runCell(page, fake, 'sql', groupBy('sales'));
    first.worker = await workerTimes(page, fake);
    const second = await runCell(page, fake, 'sql', groupBy('sales'));
    second.worker = await workerTimes(page, fake);
    if (first.rowCount !== String(REGIONS)) throw new Error(`the GROUP BY showed ${first.rowCount} rows, not ${REGIONS}`);
    await dropFile(page, pyCsv.path, pyCsv.sha256);
    const pyFirst = await runCell(page, fake, 'python', pythonSql('sales_py'));
    pyFirst.worker = await workerTimes(page, fake);
    const pySecond = await runCell(page, fake, 'python', pythonSql('sales_py'));
    await page.close();

    // A cached visit: same context, DuckDB's files in the HTTP cache.
    const cachedPage = await openApp(context, APP);
    await recordLongTasks(cachedPage);
    await runCell(cachedPage, fake, 'python', INSTRUMENT);
    const coldCached = await runCell(cachedPage, fake, 'sql', 'SELECT 42 AS answer');
    coldCached.worker = await workerTimes(cachedPage, fake);
    const warmCached = await runCell(cachedPage, fake, 'sql', 'SELECT 42 AS answer');
    await workerTimes(cachedPage, fake);
    const [dropStart, dropEnd] = await dropFile(cachedPage, big.path, big.sha256);
    const bigFirst = await runCell(cachedPage, fake, 'sql', groupBy('sales_100mb'));
    const bigTasks = await longTasksBetween(cachedPage, bigFirst.from, bigFirst.to);
    const uploadTasks = await longTasksBetween(cachedPage, dropStart, dropEnd);
    bigFirst.worker = await workerTimes(cachedPage, fake);
    const bigSecond = await runCell(cachedPage, fake, 'sql', groupBy('sales_100mb'));
    const strip = ({ totalMs, toFilesMs, filesMs, runningMs, worker }) => ({ totalMs, toFilesMs, filesMs, runningMs, worker });
    // DuckDB's cold start: from the first need (the SQL call's cell appears) to the engine ready.
    const coldStart = (cell) => ({ ...strip(cell), coldStartMs: cell.worker.readyEpochMs - cell.appearedEpochMs });
    return {
      coldFirst: coldStart(coldFirst),
      warm: strip(warm),
      coldCached: coldStart(coldCached),
      warmCached: strip(warmCached),
      first: strip(first),
      second: strip(second),
      pyFirst: strip(pyFirst),
      pySecond: strip(pySecond),
      answer: jsonAfter(pyFirst.text, 'answer'),
      big: { first: strip(bigFirst), second: strip(bigSecond), mainThread: bigTasks, uploadMainThread: uploadTasks },
    };
  } finally {
    await context.close();
  }
}

const results = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.type()} ${os.release()}`,
  versions: { node: process.version, duckdbWasm: duckdbPackageVersion },
  repeat: REPEAT,
  csv: { rows: csv.rows, bytes: csv.bytes },
  bigCsv: { rows: big.rows, bytes: big.bytes },
  uptime: { start: uptime() },
  runs: [],
};
const resources = [() => fs.rmSync(tmp, { recursive: true, force: true })];
try {
  const fake = await startFakeOpenAI({ port: FAKE_PORT });
  resources.push(() => fake.close());
  const app = await startApp(APP_PORT, { PORT: String(APP_PORT), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_LOG_LEVEL: 'error', RUNPAD_DATA_DIR: path.join(tmp, 'app-data') });
  resources.push(() => app.kill());
  const bare = await startBareDuckdbServer(BARE_PORT, data);
  resources.push(() => bare.close());
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
  });
  resources.push(() => browser.close());
  results.versions.chromium = browser.version();
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/?v=${duckdbPackageVersion}`;

  // Interleaved, so a change in the machine's load falls on every engine of a repetition alike.
  for (let i = 0; i < REPEAT; i += 1) {
    const run = { loadBefore: os.loadavg()[0] };
    run.native = { ...(await nativeRun(csv.path, 'sales')), big: await nativeRun(big.path, 'sales_100mb') };
    run.bare = await bareRun(browser, bareUrl, { csv: 'sales.csv', big: 'sales_100mb.csv' });
    run.app = await appRun(browser, fake);
    const answer = JSON.stringify(run.native.first.map((r) => [r.region, Number(r.n)]));
    if (answer !== JSON.stringify(run.app.answer)) throw new Error('the app and native DuckDB disagree on the GROUP BY');
    if (answer !== JSON.stringify(run.bare.answer)) throw new Error('bare DuckDB-wasm and native DuckDB disagree on the GROUP BY');
    delete run.bare.answer;
    for (const engine of [run.native, run.native.big]) delete engine.first;
    results.runs.push(run);
    console.log(`run ${i + 1}/${REPEAT}: first ${Math.round(run.app.first.totalMs)} ms (native ${Math.round(run.native.firstMs)}), 100 MB ${Math.round(run.app.big.first.totalMs)} ms (native ${Math.round(run.native.big.firstMs)}), load ${os.loadavg()[0].toFixed(1)}`);
  }
} finally {
  results.uptime.end = uptime();
  await releaseAll(resources);
}

const out = writeOut('duckdb-browser', results);
writeBrowserResults(results);
console.log(`wrote ${out} and the browser section of bench/RESULTS-duckdb.md`);
