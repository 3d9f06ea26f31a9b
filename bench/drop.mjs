#!/usr/bin/env node
// A drop is ready at once (docs/DECISIONS.md, 2026-12-07): a CSV of BENCH_DROP_MB megabytes
// (default 1024) is dropped on a conversation whose SQL engine is started, and the person's query
// (a cell edited to count its rows) runs at once, reading the dropped File in place while the file
// is kept on the device behind it. Measured in the same run:
// - drop → the query's result on the page, and the same query's own time (its cell's running
//   phase), run again on the kept copy once the keep ended (goal: drop → result ≤ 1 s + the query);
// - the keep (read + OPFS write + SHA-256 in a second worker) from the drop to the chip's `done`
//   (which includes recording the file), against `openssl sha256` of the same file.
// Not part of the suite. Needs `npm run build`. Usage: node bench/drop.mjs [rounds]
// Writes bench/out/<date>-drop.json and prints a summary; ports move with BENCH_PORT_OFFSET.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { openApp, runCell } from './duckdb-browser-page.mjs';
import { startApp } from './servers.mjs';
import { writeSalesCsv } from './targets-data.mjs';

const MB = Number(process.env.BENCH_DROP_MB ?? 1024);
const ROUNDS = Number(process.argv[2] ?? 2);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const APP_PORT = 9500 + OFFSET;
const FAKE_PORT = 9510 + OFFSET;
const APP = `http://127.0.0.1:${APP_PORT}`;
const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];
const LONG_MS = 600_000;
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!fs.existsSync('.next/BUILD_ID')) throw new Error('.next/BUILD_ID is missing: run `npm run build` first');

/** The cell's statuses with the page's clock, from a MutationObserver (as bench/duckdb-browser-page.mjs). */
async function watchCells(page) {
  await page.evaluate(() => {
    window.cellTimes = [];
    window.cellObserver?.disconnect();
    window.cellObserver = new MutationObserver((records) => {
      const now = performance.now();
      for (const record of records) if (record.type === 'attributes') window.cellTimes.push([record.target.getAttribute('data-cell-status'), now]);
    });
    window.cellObserver.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-cell-status'] });
  });
}

/** Waits for the last SQL cell to end; its running phase and end in the page's clock. */
async function cellEnd(page, after) {
  await page.waitForFunction((t) => window.cellTimes.some(([status, at]) => at > t && ['ok', 'error', 'timeout', 'interrupted', 'crashed'].includes(status)), after, { timeout: LONG_MS, polling: 50 });
  const { times, status, text } = await page.evaluate(() => {
    const cell = [...document.querySelectorAll('section[data-target="sql"]')].at(-1);
    return { times: window.cellTimes, status: cell?.getAttribute('data-cell-status'), text: cell?.textContent ?? '' };
  });
  if (status !== 'ok') throw new Error(`the query ended ${status}: ${text.slice(0, 400)}`);
  const mine = times.filter(([, at]) => at > after);
  const end = mine.find(([s]) => s === 'ok')[1];
  const running = mine.find(([s]) => s === 'running')?.[1] ?? end;
  return { end, runningMs: end - running, text };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-drop-'));
const results = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node ${process.version}`, mb: MB, uptime: { start: uptime() }, rounds: [] };
const resources = [() => fs.rmSync(tmp, { recursive: true, force: true })];
try {
  const csvPath = path.join(tmp, 'dropped_sales.csv');
  const csv = writeSalesCsv(csvPath, Math.round((MB * 1024 * 1024) / 36.5));
  results.csv = { rows: csv.rows, bytes: csv.bytes };
  console.log(`generated ${(csv.bytes / 1e6).toFixed(0)} MB, ${csv.rows} rows`);
  const fake = await startFakeOpenAI({ port: FAKE_PORT });
  resources.push(() => fake.close());
  const app = await startApp(APP_PORT, { PORT: String(APP_PORT), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_LOG_LEVEL: 'error', RUNPAD_DATA_DIR: path.join(tmp, 'app-data') });
  resources.push(() => app.kill());
  // A profile on disk, as a person's browser has (an off-the-record context's storage quota is a share of memory).
  const context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  resources.push(() => context.close());
  results.chromium = context.browser()?.version() ?? 'unknown';

  for (let round = 0; round < ROUNDS; round += 1) {
    // openssl first, each round: the same file, the same page cache, the same hour.
    const t0 = performance.now();
    const openssl = execFileSync('openssl', ['sha256', '-r', csvPath], { encoding: 'utf8' }).split(' ')[0];
    const opensslMs = performance.now() - t0;
    if (openssl !== csv.sha256) throw new Error('openssl and the generator disagree on the SHA-256');

    const page = await openApp(context, APP);
    await runCell(page, fake, 'sql', 'SELECT 42 AS answer'); // DuckDB started, as in a conversation under way
    const cell = page.locator('section[data-target="sql"]').last();
    await cell.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = cell.getByLabel('Edit code');
    await editor.fill('SELECT COUNT(*) AS n FROM dropped_sales');
    await watchCells(page);
    // The drop: a File backed by the file on disk (no copy through the protocol), then real drag events.
    const input = await page.evaluateHandle(() => Object.assign(document.createElement('input'), { type: 'file' }));
    await input.setInputFiles(csvPath);
    const dropped = await page.evaluate((element) => {
      const data = new DataTransfer();
      data.items.add(element.files[0]);
      const target = document.querySelector('#conversation');
      const at = performance.now();
      target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      return at;
    }, input);
    const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
    await chip.waitFor({ timeout: LONG_MS });
    await editor.press('ControlOrMeta+Enter');
    const inPlace = await cellEnd(page, dropped);
    const keepState = await chip.getAttribute('data-upload-status');
    await page.waitForFunction(() => document.querySelector('[data-upload-status]')?.getAttribute('data-upload-status') === 'done', null, { timeout: LONG_MS, polling: 50 });
    const keptAt = await page.evaluate(() => performance.now());
    // The same query on the kept copy, nothing else running: its own time.
    const before = await page.evaluate(() => performance.now());
    await cell.getByRole('button', { name: 'Run again' }).click();
    const kept = await cellEnd(page, before);
    const row = {
      dropToResultMs: inPlace.end - dropped,
      inPlaceRunningMs: inPlace.runningMs,
      queryOwnMs: kept.runningMs,
      stateAtResult: keepState,
      keepMs: keptAt - dropped,
      opensslMs,
    };
    row.overheadMs = row.dropToResultMs - row.queryOwnMs;
    row.keepMBps = csv.bytes / 1e6 / (row.keepMs / 1000);
    row.opensslMBps = csv.bytes / 1e6 / (opensslMs / 1000);
    row.keepOverOpenssl = row.keepMs / opensslMs;
    results.rounds.push(row);
    console.log(JSON.stringify(row));
    // The kept copy goes, so the next round keeps the file afresh.
    await page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('runpad-datasets', { create: true });
      for await (const name of dir.keys()) await dir.removeEntry(name);
    }).catch(() => undefined);
    await page.close();
  }
  results.median = Object.fromEntries(['dropToResultMs', 'inPlaceRunningMs', 'queryOwnMs', 'overheadMs', 'keepMs', 'opensslMs', 'keepOverOpenssl'].map((key) => [key, median(results.rounds.map((r) => r[key]))]));
  console.log(JSON.stringify(results.median, null, 2));
} finally {
  results.uptime.end = uptime();
  for (const release of resources.reverse()) {
    try {
      await release();
    } catch (error) {
      console.error('cleanup:', error);
    }
  }
}
fs.mkdirSync('bench/out', { recursive: true });
const out = `bench/out/${results.date.slice(0, 19).replace(/:/g, '-')}-drop.json`;
fs.writeFileSync(out, JSON.stringify(results, null, 2));
console.log(`wrote ${out}`);
