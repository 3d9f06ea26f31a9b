#!/usr/bin/env node
// A CSV of BENCH_GB gigabytes (default 5) kept on the device, read in place by the app's engines
// (ARCHITECTURE.md, "Datasets kept on the device"), against native baselines on the same file:
// - the first GROUP BY in the app's DuckDB (a view over the mounted file) vs native DuckDB on one
//   thread (@duckdb/node-api) reading the same CSV (goal ≤ 3×);
// - Python reading it line by line in the app vs CPython (python3) doing the same (goal ≤ 3×);
// - the tab's memory growth while attached and queried: the resident memory of the browser's
//   renderer processes (the page and its workers), sampled every 250 ms (goal ≤ 1 GB);
// - the longest main-thread task meanwhile (Long Tasks API, bench/main-thread.mjs; goal none over 50 ms).
// Not part of the suite. Needs `npm run build`. Writes bench/out/<date>-device-datasets.json and prints a summary.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openApp, runCell } from './duckdb-browser-page.mjs';
import { groupBy } from './duckdb-native.mjs';
import { longTasksBetween, recordLongTasks } from './main-thread.mjs';
import { releaseAll, requireBuild, startAppInBrowser, uptime, writeOut } from './harness.mjs';
import { writeSalesCsv } from './targets-data.mjs';

const GB = Number(process.env.BENCH_GB ?? 5);
/** Rows of the sales CSV (bench/targets-data.mjs) average 36.5 bytes. */
const ROWS = Math.round((GB * 1e9) / 36.5);
/** Its ports move with BENCH_PORT_OFFSET, so runs beside other benches or the e2e suite do not meet. */
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const APP_PORT = 9400 + OFFSET;
const FAKE_PORT = 9410 + OFFSET;
const NAME = 'sales_device.csv';
const TABLE = 'sales_device';
const time = async (task) => {
  const start = performance.now();
  const value = await task();
  return [performance.now() - start, value];
};

requireBuild();

const LINES_CODE = (file) =>
  ['import time', 't0 = time.perf_counter()', 'n = 0', `with open(${JSON.stringify(file)}) as f:`, '    for line in f:', '        n += 1', 'print("lines", n, "seconds", time.perf_counter() - t0)'].join('\n');
const HEAP_CODE = 'import pyodide_js\nprint("heap", pyodide_js._module.HEAPU8.length)';

/** The resident memory (bytes) of the renderer processes descended from this process: the page and its workers. */
function rendererRss() {
  const children = new Map();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const ppid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(pid)]);
    } catch {
      // the process went away
    }
  }
  let total = 0;
  const walk = (pid) => {
    for (const child of children.get(pid) ?? []) {
      try {
        if (fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--type=renderer')) {
          total += Number(fs.readFileSync(`/proc/${child}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;
        }
      } catch {
        // the process went away
      }
      walk(child);
    }
  };
  walk(process.pid);
  return total;
}

/** Samples the renderers' resident memory every 250 ms; `phase(name)` closes a phase with its peak and its last sample. */
function sampleRss() {
  const samples = [rendererRss()];
  const phases = {};
  let phaseStart = 0;
  const timer = setInterval(() => samples.push(rendererRss()), 250);
  return {
    phase(name) {
      samples.push(rendererRss());
      const inPhase = samples.slice(phaseStart);
      phases[name] = { peak: Math.max(...inPhase), end: inPhase.at(-1) };
      phaseStart = samples.length - 1;
    },
    stop: () => (clearInterval(timer), { first: samples[0], peak: Math.max(...samples), samples: samples.length, phases }),
  };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-device-'));
const csvPath = path.join(tmp, NAME);
const results = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node ${process.version}`, gb: GB, uptime: { start: uptime() } };
const resources = [() => fs.rmSync(tmp, { recursive: true, force: true })];
try {
  const [generateMs, csv] = await time(async () => writeSalesCsv(csvPath, ROWS));
  results.csv = { rows: csv.rows, bytes: csv.bytes, generateMs };
  console.log(`generated ${(csv.bytes / 1e9).toFixed(2)} GB, ${csv.rows} rows in ${(generateMs / 1000).toFixed(0)} s`);

  // Native baselines on the same file, first (the page cache then holds as much of it for both).
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const conn = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
  const nativeSql = groupBy(`read_csv('${csvPath.replaceAll("'", "''")}')`);
  const [nativeGroupByMs, nativeRows] = await time(async () => (await conn.runAndReadAll(nativeSql)).getRowObjectsJson());
  conn.closeSync();
  const cpython = execFileSync('python3', ['-c', LINES_CODE(csvPath)], { encoding: 'utf8' }).match(/lines (\d+) seconds ([\d.]+)/);
  results.native = { groupByMs: nativeGroupByMs, cpythonLines: Number(cpython[1]), cpythonMs: Number(cpython[2]) * 1000 };
  console.log(`native DuckDB GROUP BY ${(nativeGroupByMs / 1000).toFixed(1)} s; CPython line by line ${Number(cpython[2]).toFixed(1)} s`);

  const { fake, context, url, chromium } = await startAppInBrowser({ dir: tmp, appPort: APP_PORT, fakePort: FAKE_PORT, resources });
  results.chromium = chromium;
  const home = await openApp(context, url);

  // Kept on the device: the file's bytes copied into OPFS at runpad-datasets/<sha256>, as the page
  // keeps a dropped file (a File backed by the disk, streamed; never whole in memory).
  const input = await home.evaluateHandle(() => Object.assign(document.createElement('input'), { type: 'file' }));
  await input.setInputFiles(csvPath);
  const [keepMs] = await time(() =>
    home.evaluate(async ({ element, sha256 }) => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('runpad-datasets', { create: true });
      await element.files[0].stream().pipeTo(await (await dir.getFileHandle(sha256, { create: true })).createWritable());
    }, { element: input, sha256: csv.sha256 }),
  );
  const id = randomUUID();
  const status = await home.evaluate(
    async ({ id, body }) => (await fetch(`/api/conversations/${id}/device-files`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
    { id, body: { name: NAME, size: csv.bytes, sha256: csv.sha256 } },
  );
  if (status !== 201) throw new Error(`recording the device file answered ${status}`);
  results.keepMs = keepMs;
  console.log(`kept on the device (copied into OPFS) in ${(keepMs / 1000).toFixed(1)} s`);
  await home.close();

  const page = await openApp(context, `${url}/c/${id}`);
  await recordLongTasks(page);
  const heapBefore = Number((await runCell(page, fake, 'python', HEAP_CODE)).text.match(/heap (\d+)/)[1]);
  const rss = sampleRss();
  const warm = await runCell(page, fake, 'sql', 'SELECT 42 AS answer'); // DuckDB started and the file attached (its view made)
  rss.phase('attach');
  const first = await runCell(page, fake, 'sql', groupBy(TABLE));
  rss.phase('groupBy');
  const checkRows = await runCell(page, fake, 'python', `import json\nrows = sql(${JSON.stringify(groupBy(TABLE))})\nprint("answer", json.dumps([[r["region"], int(r["n"])] for r in rows]))`);
  rss.phase('pythonSql');
  const lines = await runCell(page, fake, 'python', LINES_CODE(`/data/${NAME}`));
  rss.phase('lines');
  const memory = rss.stop();
  const heapAfter = Number((await runCell(page, fake, 'python', HEAP_CODE)).text.match(/heap (\d+)/)[1]);
  const mainThread = await longTasksBetween(page, warm.from, lines.to);
  const appLines = lines.text.match(/lines (\d+) seconds ([\d.]+)/);
  const answer = JSON.parse(checkRows.text.slice(checkRows.text.indexOf('answer ') + 7).split('\n')[0].match(/^\[.*\]/)[0]);
  if (JSON.stringify(answer) !== JSON.stringify(nativeRows.map((r) => [r.region, Number(r.n)]))) throw new Error('the app and native DuckDB disagree on the GROUP BY');
  if (Number(appLines[1]) !== results.native.cpythonLines) throw new Error(`the app counted ${appLines[1]} lines, CPython ${results.native.cpythonLines}`);
  results.app = {
    attachMs: warm.totalMs,
    groupBy: { totalMs: first.totalMs, runningMs: first.runningMs },
    lines: { totalMs: lines.totalMs, inCellMs: Number(appLines[2]) * 1000 },
    heap: { before: heapBefore, after: heapAfter },
    rendererRss: memory,
    mainThread,
  };
  results.ratios = { groupBy: first.runningMs / nativeGroupByMs, lines: (Number(appLines[2]) * 1000) / results.native.cpythonMs, memoryGrowthBytes: memory.peak - memory.first };
  console.log(JSON.stringify({ app: results.app, ratios: results.ratios }, null, 2));
} finally {
  results.uptime.end = uptime();
  await releaseAll(resources);
}
console.log(`wrote ${writeOut('device-datasets', results)}`);
