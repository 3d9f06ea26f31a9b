#!/usr/bin/env node
// `node bench/targets.mjs` (after `npm run build`): the SQL and Graphviz targets against baselines
// measured in the same run. Writes bench/out/<date>-targets.json and bench/RESULTS-targets.md.
// Benchmarks report; they never fail on a timing. BENCH_REPEAT (default 5) sets the repetitions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { pyodideVersion } from '../scripts/pyodide-assets.mjs';
import { startBareServer } from './servers.mjs';
import { generateDot, GRAPH_NODES, writeSalesCsv } from './targets-data.mjs';
import { releaseAll, requireBuild, writeOut } from './harness.mjs';
import { graphvizBench, startWorkerServer } from './targets-graphviz.mjs';
import { writeTargetsResults } from './targets-report.mjs';
import { sqlBench } from './targets-sql.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
// Ports 3320–3329 are this benchmark's (others use 3100–3103, 3192–3193, 3300–3319, 4010–4012).
const BARE_PORT = 3320;
const WORKER_PORT = 3321;

requireBuild(['public/workers/graphviz.worker.mjs', `public/pyodide/${pyodideVersion}/pyodide.mjs`]);

const results = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.type()} ${os.release()}`,
  versions: { node: process.version, pyodide: pyodideVersion },
  repeat: REPEAT,
  loadAverage: { start: os.loadavg()[0] },
};

// The CSV lives in a temp dir of its own (35 MB), removed at the end.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-targets-'));
const resources = [() => fs.rmSync(tmp, { recursive: true, force: true })];
try {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
  });
  resources.push(() => browser.close());
  results.versions.chromium = browser.version();
  const bare = await startBareServer(BARE_PORT);
  resources.push(() => bare.close());
  const workerServer = await startWorkerServer(WORKER_PORT);
  resources.push(() => workerServer.close());

  console.log('1. SQL: GROUP BY over a 1,000,000-row CSV');
  const csvPath = path.join(tmp, 'data', 'sales.csv');
  fs.mkdirSync(path.dirname(csvPath));
  const csvFile = writeSalesCsv(csvPath);
  results.sql = await sqlBench({ browser, bareUrl: `http://127.0.0.1:${BARE_PORT}`, csvPath, csvFile, repeat: REPEAT });

  console.log(`2–3. Graphviz: ${GRAPH_NODES}-node graph, render and cold start`);
  const dot = generateDot();
  results.graphviz = { nodes: GRAPH_NODES, dotChars: dot.length, ...(await graphvizBench({ browser, url: `http://127.0.0.1:${WORKER_PORT}/`, dot, repeat: REPEAT })) };
} finally {
  results.loadAverage.end = os.loadavg()[0];
  await releaseAll(resources);
}

const out = writeOut('targets', results);
writeTargetsResults(results);
console.log(`wrote ${out} and bench/RESULTS-targets.md`);
