#!/usr/bin/env node
// A drop is ready at once (docs/DECISIONS.md, 2026-12-07): a CSV of BENCH_DROP_MB megabytes
// (default 1024) is dropped on a conversation whose SQL engine is started, and the person's query
// (a cell edited to count its rows) runs at once, reading the dropped File in place while the file
// is kept on the device behind it. Measured in the same run:
// - drop → the query's result on the page, and the same query's own time (from its start on the
//   page, the status line's "running your version…", to its result), run again on the kept copy
//   once the keep ended (goal: drop → result ≤ 1 s + the query); both runs must count every row;
// - the keep (read + OPFS write + SHA-256 in a second worker) from the drop to the chip's `done`
//   (which includes recording the file), against `openssl sha256` of the same file and `dd` of it
//   to the same disk (the keep both hashes and writes every byte: its bound is the slower of the two).
// Not part of the suite. Needs `npm run build`. Usage: node bench/drop.mjs [rounds]
// Writes bench/out/<date>-drop.json and prints a summary; ports move with BENCH_PORT_OFFSET.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { editCell, runTimeMs, USER_RUN_BADGE, USER_RUN_PENDING } from '../e2e/cell-run.mjs';
import { openApp, runCell } from './duckdb-browser-page.mjs';
import { releaseAll, requireBuild, startAppInBrowser, uptime, writeOut } from './harness.mjs';
import { writeSalesCsv } from './targets-data.mjs';

const MB = Number(process.env.BENCH_DROP_MB ?? 1024);
const ROUNDS = Number(process.argv[2] ?? 2);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const APP_PORT = 9500 + OFFSET;
const FAKE_PORT = 9510 + OFFSET;
const LONG_MS = 600_000;
/** The middle value; of an even count, the mean of the middle two. */
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
};
/**
 * BENCH_DROP_HOLD_KEEP=1 (a diagnosis, not the goal's figure): the keep's worker script is held until
 * the in-place query ends, so that query reads the dropped File with nothing else reading it.
 */
const HOLD_KEEP = process.env.BENCH_DROP_HOLD_KEEP === '1';

requireBuild();

/**
 * Logs, with the page's clock, each change of the last SQL cell's state (its data-cell-status, its
 * status line and its header, where a person's run shows its badge) and of the chip's keep state. A person's run keeps the
 * cell's last data-cell-status until it ends (e2e/cell-run.mjs), so its start and end are told by
 * the status line's "running your version…" appearing and going.
 */
async function watchCell(page) {
  await page.evaluate(() => {
    window.cellLog = [];
    window.cellObserver?.disconnect();
    const record = () => {
      const cell = [...document.querySelectorAll('section[data-target="sql"]')].at(-1);
      const keep = document.querySelector('[data-upload-status]')?.getAttribute('data-upload-status') ?? '';
      const state = { status: cell?.getAttribute('data-cell-status') ?? '', line: cell?.querySelector('[data-testid="run-status"]')?.textContent ?? '', header: cell?.querySelector('header')?.textContent ?? '', keep };
      const last = window.cellLog.at(-1);
      if (!last || ['status', 'line', 'header', 'keep'].some((key) => last[key] !== state[key])) window.cellLog.push({ ...state, at: performance.now() });
    };
    record();
    window.cellObserver = new MutationObserver(record);
    window.cellObserver.observe(document.body, { attributes: true, childList: true, characterData: true, subtree: true });
  });
}

/**
 * Waits for a person's run of the last SQL cell begun after `after` (page clock) to end, and checks
 * it ended `ok` with `badge`; returns when it began and ended, and its run time as the cell says it.
 */
async function userRunEnd(page, after, badge) {
  await page.waitForFunction(
    ([t, pending]) => {
      const begun = window.cellLog.findIndex((entry) => entry.at > t && entry.line === pending);
      return begun >= 0 && window.cellLog.slice(begun).some((entry) => entry.line !== pending);
    },
    [after, USER_RUN_PENDING],
    { timeout: LONG_MS, polling: 50 },
  );
  const log = await page.evaluate(() => window.cellLog);
  const begun = log.findIndex((entry) => entry.at > after && entry.line === USER_RUN_PENDING);
  const end = log.slice(begun).find((entry) => entry.line !== USER_RUN_PENDING);
  const text = await page.locator('section[data-target="sql"]').last().textContent();
  if (end.status !== 'ok' || !end.header.includes(badge)) throw new Error(`the query did not end ok (${end.status}): ${text.slice(0, 400)}`);
  const keptAt = log.find((entry) => entry.keep === 'done')?.at ?? null;
  return { begun: log[begun].at, end: end.at, keepAtEnd: end.keep, keptAt, cellMs: runTimeMs(end.line), text };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-drop-'));
const results = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node ${process.version}`, mb: MB, heldKeep: HOLD_KEEP, uptime: { start: uptime() }, rounds: [] };
const resources = [() => fs.rmSync(tmp, { recursive: true, force: true })];
try {
  const csvPath = path.join(tmp, 'dropped_sales.csv');
  const csv = writeSalesCsv(csvPath, Math.round((MB * 1024 * 1024) / 36.5));
  results.csv = { rows: csv.rows, bytes: csv.bytes };
  console.log(`generated ${(csv.bytes / 1e6).toFixed(0)} MB, ${csv.rows} rows`);
  const { fake, context, url, chromium } = await startAppInBrowser({ dir: tmp, appPort: APP_PORT, fakePort: FAKE_PORT, resources });
  results.chromium = chromium;

  for (let round = 0; round < ROUNDS; round += 1) {
    // openssl first, each round: the same file, the same page cache, the same hour.
    const t0 = performance.now();
    const openssl = execFileSync('openssl', ['sha256', '-r', csvPath], { encoding: 'utf8' }).split(' ')[0];
    const opensslMs = performance.now() - t0;
    if (openssl !== csv.sha256) throw new Error('openssl and the generator disagree on the SHA-256');

    // The disk's own copy of the same file in 8 MiB reads and writes, as the keep's chunks (the keep
    // writes every byte once; openssl writes none). dd, not cp: cp copies inside the kernel.
    const t1 = performance.now();
    execFileSync('dd', [`if=${csvPath}`, `of=${path.join(tmp, 'copied.csv')}`, 'bs=8M', 'status=none']);
    const copyMs = performance.now() - t1;
    fs.rmSync(path.join(tmp, 'copied.csv'));

    const loadBefore = os.loadavg();
    const page = await openApp(context, url);
    await runCell(page, fake, 'sql', 'SELECT 42 AS answer'); // DuckDB started, as in a conversation under way
    const cell = page.locator('section[data-target="sql"]').last();
    // The person has written the query; the file comes next, then Ctrl+Enter (e2e/drop-in-place.spec.ts).
    const editor = await editCell(cell, 'SELECT COUNT(*) AS n FROM dropped_sales');
    await watchCell(page);
    let releaseKeep = () => undefined;
    if (HOLD_KEEP) {
      const held = new Promise((resolve) => (releaseKeep = resolve));
      await page.route('**/workers/device-keep.worker.mjs', async (route) => {
        await held;
        await route.continue();
      });
    }
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
    const chipAt = await page.evaluate(() => performance.now());
    await editor.press('ControlOrMeta+Enter');
    const inPlace = await userRunEnd(page, dropped, USER_RUN_BADGE.edited);
    releaseKeep();
    await page.waitForFunction(() => window.cellLog.some((entry) => entry.keep === 'done'), null, { timeout: LONG_MS, polling: 50 });
    const keptAt = await page.evaluate(() => window.cellLog.find((entry) => entry.keep === 'done').at);
    // The same query on the kept copy, nothing else running: its own time, click to result.
    const before = await page.evaluate(() => performance.now());
    await cell.getByRole('button', { name: 'Run again' }).click();
    const kept = await userRunEnd(page, before, USER_RUN_BADGE.rerun);
    for (const run of [inPlace, kept]) {
      const counted = Number(run.text.match(/n↕([\d,]+)/)?.[1].replaceAll(',', ''));
      if (counted !== csv.rows) throw new Error(`the query counted ${counted} rows, the file has ${csv.rows}: ${run.text.slice(0, 400)}`);
    }
    const row = {
      dropToResultMs: inPlace.end - dropped,
      // From the drop to the chip on the page (the bench then presses Ctrl+Enter), and from the
      // run's start on the page (its status line) to its result.
      dropToChipMs: chipAt - dropped,
      inPlaceRunMs: inPlace.end - inPlace.begun,
      inPlaceCellMs: inPlace.cellMs,
      queryOwnMs: kept.end - kept.begun,
      queryOwnCellMs: kept.cellMs,
      keepAtResult: inPlace.keepAtEnd,
      heldKeep: HOLD_KEEP,
      keepMs: keptAt - dropped,
      // The result on the page after the keep's end (negative: before it).
      resultAfterKeepMs: inPlace.end - keptAt,
      opensslMs,
      copyMs,
      load: { before: loadBefore, after: os.loadavg() },
    };
    row.overheadMs = row.dropToResultMs - row.queryOwnMs;
    row.keepMBps = csv.bytes / 1e6 / (row.keepMs / 1000);
    row.opensslMBps = csv.bytes / 1e6 / (opensslMs / 1000);
    row.keepOverOpenssl = row.keepMs / opensslMs;
    // The keep's time outside the in-place run (it waits while the run reads the dropped File): from the drop to the run's start, and from the run's end to `done`.
    row.keepOutsideRunMs = Math.max(0, keptAt - inPlace.end) + (inPlace.begun - dropped);
    row.keepOutsideRunMBps = csv.bytes / 1e6 / (row.keepOutsideRunMs / 1000);
    row.copyMBps = csv.bytes / 1e6 / (copyMs / 1000);
    // The keep against the slower of its two bounds on this machine this minute: hashing (openssl) and writing (dd).
    row.keepOverBound = row.keepMs / Math.max(opensslMs, copyMs);
    results.rounds.push(row);
    console.log(JSON.stringify(row));
    // The kept copy goes, so the next round keeps the file afresh.
    await page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('runpad-datasets', { create: true });
      for await (const name of dir.keys()) await dir.removeEntry(name);
    }).catch(() => undefined);
    await page.close();
  }
  results.median = Object.fromEntries(['dropToResultMs', 'dropToChipMs', 'inPlaceRunMs', 'queryOwnMs', 'overheadMs', 'keepMs', 'resultAfterKeepMs', 'keepMBps', 'opensslMs', 'opensslMBps', 'keepOverOpenssl', 'copyMs', 'copyMBps', 'keepOverBound', 'keepOutsideRunMs', 'keepOutsideRunMBps'].map((key) => [key, median(results.rounds.map((r) => r[key]))]));
  console.log(JSON.stringify(results.median, null, 2));
} finally {
  results.uptime.end = uptime();
  await releaseAll(resources);
}
console.log(`wrote ${writeOut('drop', results)}`);
