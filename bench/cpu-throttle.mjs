// A slow CPU for the bench: Chromium's own CPU throttling (DevTools protocol
// `Emulation.setCPUThrottlingRate`), set on every page the bench opens, the bare baseline's pages
// alike, so ratios taken at one rate compare.
//
// What the throttle reaches: Chromium accepts the command for pages only ("Operation is only
// supported for pages, not workers"). It slows the page's main thread by keeping it busy in short
// slices, which a trace counts as that thread's CPU time (`tdur`): at rate 3 a task's CPU time is
// about three times its unthrottled CPU time, and, unlike its wall time, does not grow when other
// processes take the cores. A worker started by the page (Pyodide's) is slowed too, but not alike:
// `calibrate` below measures both threads in the same run rather than assuming either.

/** BENCH_CPU_RATES=1,3,6 (default 1): the rates the bench measures at, each a column in RESULTS.md. */
export function cpuRates(env = process.env) {
  const rates = (env.BENCH_CPU_RATES ?? '1')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n >= 1);
  return rates.length ? [...new Set(rates)] : [1];
}

/** Sets the rate on a page before it navigates (rate 1: nothing to do). */
export async function throttlePage(page, rate) {
  if (rate === 1) return;
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate });
}

const LOOP = 'let x = 0; for (let i = 0; i < 3e7; i += 1) x += i % 7;';
const CALIBRATION_PAGE = `<!doctype html><script>
const source = ${JSON.stringify(`onmessage = () => { ${LOOP} postMessage(x); };`)};
const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
window.inWorker = () => new Promise((resolve) => { const t = performance.now(); worker.onmessage = () => resolve(performance.now() - t); worker.postMessage(0); });
window.onPage = () => new Promise((resolve) => setTimeout(() => { ${LOOP} resolve(); }, 0));
</script>`;

/** The CPU time of the longest task of the page's main thread and of its worker's thread, from a trace. */
async function loopCpuMs(browser, rate) {
  const context = await browser.newContext(); // a renderer process of its own, so no other page shares its throttle
  const page = await context.newPage();
  await throttlePage(page, rate);
  await page.setContent(CALIBRATION_PAGE);
  await page.evaluate(() => window.inWorker()); // started and compiled before the trace
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'disabled-by-default-devtools.timeline'] });
  await page.evaluate(() => window.onPage());
  const workerWallMs = await page.evaluate(() => window.inWorker());
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8'));
  await context.close();
  const names = new Map(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '']));
  const longest = (thread) => Math.max(0, ...traceEvents.filter((e) => e.ph === 'X' && e.name === 'RunTask' && thread.test(names.get(`${e.pid}:${e.tid}`) ?? '')).map((e) => (e.tdur ?? 0) / 1000));
  return { page: longest(/^CrRendererMain$/), worker: longest(/DedicatedWorker/), workerWall: workerWallMs };
}

/**
 * The same JavaScript loop on a page's main thread and in its worker, unthrottled and at `rate`,
 * alternating: how much more CPU time each thread's task took (the throttle's slices included),
 * a ratio the machine's load does not move; and the worker's loop in wall time.
 */
export async function calibrate(browser, rate, rounds = 3) {
  const times = { 1: { page: [], worker: [], workerWall: [] }, [rate]: { page: [], worker: [], workerWall: [] } };
  for (let i = 0; i < rounds; i += 1) {
    for (const r of i % 2 === 0 ? [1, rate] : [rate, 1]) {
      const ms = await loopCpuMs(browser, r);
      times[r].page.push(ms.page);
      times[r].worker.push(ms.worker);
      times[r].workerWall.push(ms.workerWall);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const factor = (thread) => Math.round((median(times[rate][thread]) / median(times[1][thread])) * 100) / 100;
  // The worker's wall time: its CPU time does not show a throttle that makes it wait (load inflates this one).
  return { rate, pageSlowdown: factor('page'), workerSlowdown: factor('worker'), workerWallSlowdown: factor('workerWall'), loopMs: times };
}
