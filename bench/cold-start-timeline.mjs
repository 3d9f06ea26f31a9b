// Where a first visit's cold start goes, app beside the bare page (interleaved): when the worker
// script, pyodide.asm.wasm and the stdlib were fetched, and when the interpreter was ready, all
// in the page's clock (worker times shifted by the two time origins). Diagnostic, not a benchmark:
// `npm run build && node bench/cold-start-timeline.mjs [rounds]`.
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { startApp, startBareServer } from './servers.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0); // as in run.mjs
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
});
const bare = await startBareServer(3300 + OFFSET);
const fake = await startFakeOpenAI({ port: 4011 + OFFSET });
const app = await startApp(3301 + OFFSET, { PORT: String(3301 + OFFSET), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-cst-${Date.now()}` });

async function visit(url, readyGlobal) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const workers = [];
  page.on('worker', (w) => workers.push(w));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.appReady && document.querySelector('[data-kernel-state="ready"]')) window.appReady = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(url);
  await page.waitForFunction((g) => window[g] !== undefined, readyGlobal, { timeout: 60_000 });
  const pageInfo = await page.evaluate((g) => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource').filter((e) => /\.(js|mjs)(\?|$)/.test(e.name));
    const lastScript = Math.max(0, ...res.map((e) => e.responseEnd));
    return { origin: performance.timeOrigin, ready: window[g], domInteractive: nav.domInteractive, loadEnd: nav.loadEventEnd, lastScript };
  }, readyGlobal);
  const out = { ...pageInfo };
  for (const w of workers) {
    if (!/python|worker\.mjs/.test(w.url())) continue;
    const info = await w.evaluate(() => ({
      origin: performance.timeOrigin,
      res: performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop().split('?')[0], Math.round(e.startTime), Math.round(e.responseEnd)]),
    })).catch(() => null);
    if (!info) continue;
    const shift = info.origin - pageInfo.origin;
    out.workerStart = Math.round(shift);
    out.res = info.res.map(([n, s, e]) => `${n} ${Math.round(s + shift)}→${Math.round(e + shift)}`);
  }
  await context.close();
  return out;
}

for (let i = 0; i < ROUNDS; i += 1) {
  for (const [name, url, readyGlobal] of [
    ['bare', `http://127.0.0.1:${3300 + OFFSET}`, 'bareReady'],
    ['app', `http://127.0.0.1:${3301 + OFFSET}`, 'appReady'],
  ]) {
    const r = await visit(url, readyGlobal);
    console.log(name, `ready ${Math.round(r.ready)}`, `worker@${r.workerStart}`, `domInteractive ${Math.round(r.domInteractive)}`, `scripts done ${Math.round(r.lastScript)}`, `load ${Math.round(r.loadEnd)}`, '|', (r.res ?? []).join(' | '));
  }
}
await browser.close();
app.kill();
bare.close();
await fake.close();
