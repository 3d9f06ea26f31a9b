#!/usr/bin/env node
// `npm run bench`: measures the app against its baselines in the same run, and writes
// bench/out/<date>.json and bench/RESULTS.md. Benchmarks report; they never fail on a timing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { pyodideVersion } from '../scripts/pyodide-assets.mjs';
import { rssMb, startApp, startBareServer } from './servers.mjs';
import { concurrency, routeOverhead } from './route.mjs';
import { writeResults } from './report.mjs';
import { writeSlowCpu } from './report-slow-cpu.mjs';
import { outputHandling, streamingRender } from './render.mjs';
import { calibrate, cpuRates, throttlePage } from './cpu-throttle.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
/**
 * BENCH_ONLY=coldStart,roundTrip,output,streaming,route runs only those sections (routeOverhead:
 * the route's first byte without the concurrency runs) and writes
 * bench/out/<date>-partial-<BENCH_LABEL>.json instead of the full results (RESULTS.md untouched):
 * the record of before/after experiments.
 */
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean) ?? null;
const wanted = (section) => !ONLY || ONLY.includes(section);
/**
 * BENCH_CPU_RATES=1,3,6: the page-side sections (cold start, round trip, interrupt and restart,
 * output, streaming) measured again with Chromium's CPU throttling at each rate, on every page the
 * bench opens, the bare baseline's included (bench/cpu-throttle.mjs). The first rate's figures are
 * the run's main table; the others are in `throttled[rate]`. The server's sections run once.
 */
const RATES = cpuRates();
let rate = RATES[0];
/** BENCH_PORT_OFFSET moves the bench's ports (3300, 3301, 4011), so runs on a shared machine do not collide. */
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const BARE_PORT = 3300 + OFFSET;
const BARE = `http://127.0.0.1:${BARE_PORT}`;
const APP_PORT = 3301 + OFFSET;
const APP = `http://127.0.0.1:${APP_PORT}`;
/** `uptime`'s line (load averages over 1, 5 and 15 minutes): the machine is shared. */
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const stats = (xs) => ({ median: Math.round(median(xs) * 10) / 10, p95: Math.round(p95(xs) * 10) / 10, n: xs.length });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '/usr/bin/chromium-headless-shell'),
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
});
const bare = await startBareServer(BARE_PORT);
const fake = await startFakeOpenAI({ port: 4011 + OFFSET });
const app = await startApp(APP_PORT, { PORT: String(APP_PORT), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-bench-${Date.now()}` });

async function bareStart(context) {
  const page = await context.newPage();
  await throttlePage(page, rate);
  await page.goto(BARE);
  await page.waitForFunction(() => window.bareReady !== undefined, null, { timeout: 60_000 * rate });
  return { page, ms: await page.evaluate(() => window.bareReady) };
}

/** Both cold starts are timed in the page from its navigation start (performance.now()). */
async function appStart(context) {
  const page = await context.newPage();
  await throttlePage(page, rate);
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector('[data-kernel-state="ready"]')) {
        window.appReady = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-kernel-state'] });
  });
  await page.goto(APP);
  await page.waitForFunction(() => window.appReady !== undefined, null, { timeout: 60_000 * rate });
  return { page, ms: await page.evaluate(() => window.appReady) };
}

/**
 * The app stores its memory snapshot in Cache Storage in the background, ~0.5–1 s after it is
 * ready; a cached visit is one after that (a tab closed sooner simply starts without it again).
 */
async function snapshotStored(page) {
  await page.evaluate(async () => {
    for (let i = 0; i < 150; i += 1) {
      const cache = await caches.open('runpad-pyodide-snapshot-v1');
      if ((await cache.keys()).length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no memory snapshot was stored within 15 s');
  });
}

/**
 * Cold starts of the bare page and the app, interleaved (bare then app, app then bare, ...) so
 * that a loaded machine's swings fall on both sides of the ratio rather than on one.
 */
async function coldStartsInterleaved() {
  const times = { bare: { first: [], cached: [] }, app: { first: [], cached: [] } };
  const one = async (which) => {
    const start = which === 'app' ? appStart : bareStart;
    const context = await browser.newContext();
    const a = await start(context);
    times[which].first.push(a.ms);
    if (which === 'app') await snapshotStored(a.page);
    await a.page.close();
    const b = await start(context);
    times[which].cached.push(b.ms);
    await context.close();
  };
  for (let i = 0; i < REPEAT; i += 1) {
    for (const which of i % 2 === 0 ? ['bare', 'app'] : ['app', 'bare']) await one(which);
  }
  const summary = (t) => ({ first: stats(t.first), cached: stats(t.cached) });
  // Each round's app visit over its own round's bare one: a machine that speeds up or slows down
  // between rounds moves both sides of a pair, where it moves only one of two medians.
  const paired = (kind) => {
    const ratios = times.app[kind].map((ms, i) => ms / times.bare[kind][i]);
    return { median: Math.round(median(ratios) * 1000) / 1000, p95: Math.round(p95(ratios) * 1000) / 1000, n: ratios.length };
  };
  return { bare: summary(times.bare), app: summary(times.app), pairedRatio: { first: paired('first'), cached: paired('cached') } };
}

/** Code complete in the browser (the app's User Timing mark) → outputs in the DOM (cell ok, per MutationObserver). */
const TERMINAL = ['ok', 'error', 'timeout', 'interrupted', 'crashed'];

async function appRunRoundTrip(page, code) {
  const trigger = `bench-${Math.random().toString(36).slice(2)}`;
  // Streamed as a model streams (chunks 20 ms apart), so the code is complete in a task of its own:
  // sent all at once, the page drew the answer's start in the same task, and that frame was
  // counted as the run's (bench/NOTES.md, 2026-11-26).
  fake.addScenarios([{ trigger, chunkDelayMs: 20, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'ok' }] }]);
  await page.evaluate((terminal) => {
    window.cellTimes = [];
    window.cellObserver?.disconnect();
    // Resolved by the observer itself: Playwright's waitForFunction polls on every animation frame,
    // and those frames, drawn while the run was measured, were the bench's and not the app's.
    window.cellDone = new Promise((resolve) => {
      // A cell can first appear already running (or done): added cells count as well as changes.
      window.cellObserver = new MutationObserver((records) => {
        const now = performance.now();
        for (const r of records) {
          if (r.type === 'attributes') window.cellTimes.push([r.target.getAttribute('data-cell-status'), now]);
          for (const node of r.addedNodes) {
            const cells = node instanceof Element ? [node, ...node.querySelectorAll('[data-cell-status]')].filter((e) => e.hasAttribute('data-cell-status')) : [];
            for (const cell of cells) window.cellTimes.push([cell.getAttribute('data-cell-status'), now]);
          }
        }
        if (window.cellTimes.some(([status]) => terminal.includes(status))) resolve();
      });
    });
    window.cellObserver.observe(document.body, { attributes: true, childList: true, subtree: true, attributeFilter: ['data-cell-status'] });
  }, TERMINAL);
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(`run ${trigger}`);
  await composer.press('Enter');
  await page.evaluate(() => Promise.race([window.cellDone, new Promise((_, reject) => setTimeout(() => reject(new Error('no cell finished within 60 s')), 60_000))]));
  await page.getByRole('button', { name: 'Send' }).waitFor();
  const times = await page.evaluate(() => window.cellTimes);
  // The app marks the moment the tool call's code is complete (components/chat/chat.tsx); the
  // cell's first status reaches the DOM a render later, after the kernel has already started.
  const complete = await page.evaluate(() => performance.getEntriesByName('runpad:code-complete').at(-1)?.startTime);
  const queued = times.find(([s]) => s === 'queued' || s === 'loading-packages' || s === 'running');
  const done = times.find(([s]) => TERMINAL.includes(s));
  const running = times.find(([s]) => s === 'running') ?? queued ?? done;
  return { total: done[1] - (complete ?? (queued ?? done)[1]), running: done[1] - running[1] };
}

const results = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.type()} ${os.release()}`, versions: { node: process.version, pyodide: pyodideVersion, chromium: browser.version() }, repeat: REPEAT, cpuRates: RATES, loadAverage: { start: os.loadavg()[0] }, uptime: { start: uptime() } };
/** The page-side sections at the current `rate`. */
async function pageSections() {
  const measured = { loadAverage: { start: os.loadavg()[0] } };
  if (rate !== 1) {
    console.log(`CPU throttled ${rate}×: calibration`);
    measured.calibration = await calibrate(browser, rate);
  }
  if (wanted('coldStart')) {
    console.log('1. cold start');
    measured.coldStart = await coldStartsInterleaved();
  }

  if (wanted('roundTrip')) {
    console.log('2. run round trip');
    const bareContext = await browser.newContext();
    const barePage = (await bareStart(bareContext)).page;
    const print10k = 'print("x" * 10_000)';
    const appContext = await browser.newContext();
    const appPage = (await appStart(appContext)).page;
    // Bare and app samples alternate, so both see the same load.
    const bareTimes = { onePlusOne: [], print10k: [] };
    const appTimes = { onePlusOne: [], print10k: [] };
    for (let i = 0; i < REPEAT * 2; i += 1) {
      for (let k = 0; k < 2; k += 1) {
        bareTimes.onePlusOne.push((await barePage.evaluate(() => window.bareRun('1+1'))).ms);
        bareTimes.print10k.push((await barePage.evaluate((c) => window.bareRun(c), print10k)).ms);
      }
      appTimes.onePlusOne.push((await appRunRoundTrip(appPage, '1+1')).total);
      appTimes.print10k.push((await appRunRoundTrip(appPage, print10k)).total);
    }
    measured.runRoundTrip = {
      bare: { onePlusOne: stats(bareTimes.onePlusOne), print10k: stats(bareTimes.print10k) },
      app: { onePlusOne: stats(appTimes.onePlusOne), print10k: stats(appTimes.print10k) },
    };

    console.log('3. interrupt and hard restart');
    await appPage.evaluate(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 1000 })));
    const interrupt = [];
    const restart = [];
    const cachedStart = [];
    await snapshotStored(appPage);
    for (let i = 0; i < REPEAT; i += 1) {
      // From code complete (the run starts at once): the cell's first status is drawn later (run-hold.ts).
      interrupt.push((await appRunRoundTrip(appPage, 'while True: pass')).total - 1000);
    }
    for (let i = 0; i < REPEAT; i += 1) {
      // From the limit (code complete + 1 s: the run starts at once) to the status showing a ready
      // interpreter again, both in the page's clock.
      await appPage.evaluate(() => {
        window.readyAt = null;
        window.readyObserver?.disconnect();
        window.readyObserver = new MutationObserver(() => {
          if (document.querySelector('[data-kernel-state="ready"]')) window.readyAt = performance.now();
          else window.readyAt = null;
        });
        window.readyObserver.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-kernel-state'] });
      });
      await appRunRoundTrip(appPage, 'sum(range(10**12))');
      await appPage.waitForFunction(() => window.readyAt !== null, null, { timeout: 60_000 });
      restart.push(
        await appPage.evaluate(() => window.readyAt - performance.getEntriesByName('runpad:code-complete').at(-1).startTime - 1000),
      );
      // The restart's baseline, a cached start, measured between restarts (same load).
      const cached = await appStart(appContext);
      cachedStart.push(cached.ms);
      await cached.page.close();
    }
    measured.interrupt = { toUsableAfterLimitMs: stats(interrupt.filter(Number.isFinite)), hardRestartAfterLimitMs: stats(restart), cachedStartBetweenRestartsMs: stats(cachedStart) };
    await appContext.close();
    await bareContext.close();
  }

  if (wanted('output')) {
    console.log('4a. output handling: 1 MB of stdout and 20 images');
    measured.outputHandling = await outputHandling({ browser, start: appStart, fake, repeat: REPEAT, stats });
  }
  if (wanted('streaming')) {
    console.log('4b. streaming render: 20,000-token markdown answer');
    measured.streamingRender = await streamingRender({ browser, start: appStart, fake, repeat: REPEAT, stats });
  }

  measured.loadAverage.end = os.loadavg()[0];
  return measured;
}

try {
  Object.assign(results, await pageSections());
  for (const r of RATES.slice(1)) {
    rate = r;
    results.throttled ??= {};
    // A slowed page may miss a timeout: that rate's failure is recorded, the other rates' figures kept.
    results.throttled[r] = await pageSections().catch((error) => ({ error: String(error?.message ?? error).split('\n')[0] }));
  }
  rate = RATES[0];

  if (wanted('route') || wanted('routeOverhead')) {
    console.log('5. chat route overhead');
    results.routeOverhead = await routeOverhead({ app: APP, fake, repeat: REPEAT });
  }
  if (wanted('route')) {
    console.log('6. concurrency');
    results.concurrency = [];
    for (const n of [50, 200, 500]) results.concurrency.push({ ...(await concurrency({ app: APP, fake, streams: n })), serverRssMb: rssMb(APP_PORT) });
  }
} finally {
  results.loadAverage.end = os.loadavg()[0];
  results.uptime.end = uptime();
  await browser.close();
  app.kill();
  bare.close();
  await fake.close();
}

fs.mkdirSync('bench/out', { recursive: true });
const stamp = results.date.slice(0, 19).replace(/:/g, '-');
if (ONLY) {
  const label = process.env.BENCH_LABEL ?? 'experiment';
  fs.writeFileSync(`bench/out/${stamp}-partial-${label}.json`, JSON.stringify({ ...results, only: ONLY, label }, null, 2));
  // A slow-CPU run's table is its own section of RESULTS.md, written from a partial run too.
  writeSlowCpu({ ...results, only: ONLY });
} else {
  fs.writeFileSync(`bench/out/${stamp}.json`, JSON.stringify(results, null, 2));
  writeResults(results);
  writeSlowCpu(results);
}
console.log(JSON.stringify(results, null, 2));
