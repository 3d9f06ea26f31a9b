// Where the long main-thread tasks of a slow CPU come from: the bench's 20,000-token answer or its
// 1 MB + 20 images run, on a page throttled like bench/cpu-throttle.mjs, with a Chromium trace (each
// task's CPU time) and a sampled CPU profile of the page's thread; for every task of ≥ 10 ms of CPU,
// the functions whose own time filled it. Diagnostic, not a benchmark:
// `npm run build && node bench/slow-cpu-profile.mjs streaming|output [rate]`.
import fs from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { throttlePage } from './cpu-throttle.mjs';
import { OUTPUT_CODE, markdownAnswer } from './payloads.mjs';
import { STREAM } from './render.mjs';
import { startApp } from './servers.mjs';

const WHAT = process.argv[2] ?? 'streaming';
const RATE = Number(process.argv[3] ?? 3);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0); // as in run.mjs
const PORT = 3301 + OFFSET;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '/usr/bin/chromium-headless-shell'),
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
});
const fake = await startFakeOpenAI({ port: 4011 + OFFSET });
const app = await startApp(PORT, { PORT: String(PORT), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-slow-${Date.now()}` });

/** Self time per function (name file:line) of the samples within [from, to] µs. */
function selfTimes(profile, from, to, top = 12) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    const node = byId.get(profile.samples[i]);
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `${Math.round(ms * 10) / 10} ms ${k}`);
}

/** The call stack (outermost first) that the most samples within [from, to] µs share below the root. */
function heaviestStack(profile, from, to) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const stack = [];
  let node = profile.nodes.find((n) => !parent.has(n.id));
  while (node) {
    const next = (node.children ?? []).map((c) => byId.get(c)).filter((c) => counts.has(c.id) && !['(program)', '(idle)', '(garbage collector)'].includes(c.callFrame.functionName)).sort((a, b) => counts.get(b.id) - counts.get(a.id))[0];
    if (!next) break;
    stack.push(`${next.callFrame.functionName || '(anonymous)'} ${next.callFrame.url.split('/').pop()}:${next.callFrame.lineNumber + 1} (${counts.get(next.id)})`);
    node = next;
  }
  return stack.slice(0, 40);
}

try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await throttlePage(page, RATE);
  await page.goto(`http://127.0.0.1:${PORT}`);
  await page.locator('[data-kernel-state="ready"]').waitFor({ timeout: 120_000 });
  await page.waitForTimeout(3000); // the renderer's script loaded, the snapshot stored
  const trigger = `slow-${Math.random().toString(36).slice(2)}`;
  const marker = `end of answer ${trigger}`;
  if (WHAT === 'streaming') fake.addScenarios([{ trigger, chunkDelayMs: STREAM.chunkDelayMs, chunkChars: STREAM.chunkChars, steps: [{ text: markdownAnswer(STREAM.tokens, marker) }] }]);
  else fake.addScenarios([{ trigger, chunkDelayMs: 0, steps: [{ toolCall: { name: 'python', arguments: { code: OUTPUT_CODE } } }, { text: marker }] }]);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
  await cdp.send('Profiler.start');
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(`go ${trigger}`);
  await composer.press('Enter');
  await page.waitForFunction((m) => document.querySelector('[data-role="assistant"]:last-of-type')?.textContent?.includes(m) || [...document.querySelectorAll('[data-role="assistant"]')].some((e) => e.textContent?.includes(m)), marker, { timeout: 300_000, polling: 500 });
  await page.waitForFunction(() => [...document.querySelectorAll('form button[type="submit"]')].some((b) => b.textContent?.trim() === 'Send'), null, { timeout: 60_000, polling: 500 });
  await page.waitForTimeout(1000);
  const { profile } = await cdp.send('Profiler.stop');
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8'));
  const mains = new Set(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = traceEvents.filter((e) => e.ph === 'X' && e.name === 'RunTask' && mains.has(`${e.pid}:${e.tid}`));
  const byThread = new Map();
  for (const e of tasks) {
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  const busiest = [...byThread.values()].sort((a, b) => b.reduce((s, e) => s + (e.tdur ?? 0), 0) - a.reduce((s, e) => s + (e.tdur ?? 0), 0))[0];
  const long = busiest.filter((e) => (e.tdur ?? 0) >= 10_000).sort((a, b) => b.tdur - a.tdur);
  const first = busiest[0].ts;
  const out = long.slice(0, 15).map((e) => {
    const inside = traceEvents.filter((x) => x.ph === 'X' && x.name !== 'RunTask' && x.pid === e.pid && x.tid === e.tid && x.ts >= e.ts && x.ts + (x.dur ?? 0) <= e.ts + e.dur);
    const kinds = {};
    for (const x of inside) if (['Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint', 'Layerize', 'ParseHTML', 'FunctionCall', 'RunMicrotasks', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'v8.evaluateModule', 'EvaluateScript', 'v8.compile', 'Decode Image', 'ImageDecodeTask'].includes(x.name)) kinds[x.name] = Math.round(((kinds[x.name] ?? 0) + (x.tdur ?? 0) / 1000) * 10) / 10;
    return { atMs: Math.round((e.ts - first) / 1000), cpuMs: Math.round(e.tdur / 100) / 10, wallMs: Math.round(e.dur / 100) / 10, kinds, self: selfTimes(profile, e.ts, e.ts + e.dur), stack: heaviestStack(profile, e.ts, e.ts + e.dur) };
  });
  // The whole stream on that thread, by kind of work (nested kinds overlap: a FunctionCall holds
  // the script it ran), with how much of the document each style and layout pass touched.
  const mainKey = `${busiest[0].pid}:${busiest[0].tid}`;
  const onMain = traceEvents.filter((x) => x.ph === 'X' && `${x.pid}:${x.tid}` === mainKey);
  const whole = {};
  for (const x of onMain) {
    const kind = (whole[x.name] ??= { count: 0, cpuMs: 0 });
    kind.count += 1;
    kind.cpuMs += (x.tdur ?? 0) / 1000;
  }
  const wholeTop = Object.fromEntries(Object.entries(whole).filter(([name]) => name !== 'RunTask').sort((a, b) => b[1].cpuMs - a[1].cpuMs).slice(0, 20).map(([name, k]) => [name, { count: k.count, cpuMs: Math.round(k.cpuMs) }]));
  const median = (values) => (values.length === 0 ? null : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);
  const styleElements = onMain.filter((x) => x.name === 'UpdateLayoutTree').map((x) => x.args?.elementCount ?? 0);
  const layouts = onMain.filter((x) => x.name === 'Layout').map((x) => x.args?.beginData ?? {});
  const passes = { styleElementsMedian: median(styleElements), styleElementsMax: Math.max(0, ...styleElements), layoutDirtyMedian: median(layouts.map((l) => l.dirtyObjects ?? 0)), layoutTotalMedian: median(layouts.map((l) => l.totalObjects ?? 0)), layoutPartial: layouts.filter((l) => l.partialLayout).length, layouts: layouts.length };
  const result = { what: WHAT, rate: RATE, date: new Date().toISOString(), load: os.loadavg()[0], tasksOver10CpuMs: long.length, totalCpuMs: Math.round(busiest.reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000), tasks: busiest.length, whole: wholeTop, passes, wholeSelf: selfTimes(profile, 0, Number.MAX_SAFE_INTEGER, 30), longest: out };
  fs.mkdirSync('bench/out', { recursive: true });
  const file = `bench/out/${result.date.slice(0, 19).replace(/:/g, '-')}-slow-cpu-profile-${WHAT}-${RATE}x${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''}.json`;
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result, null, 2));
  console.log(file);
} finally {
  await browser.close();
  app.kill();
  await fake.close();
}
