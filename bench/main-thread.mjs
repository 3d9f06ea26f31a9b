// Main-thread responsiveness in the page under test: long tasks (PerformanceObserver 'longtask',
// buffered, so tasks from before the observer was installed are not lost) within a time window.

/** Installs the recorder once per page; entries are [startTime, duration] in performance.now() ms. */
export async function recordLongTasks(page) {
  await page.evaluate(() => {
    if (window.benchLongTasks) return;
    window.benchLongTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.benchLongTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/**
 * Waits until the page has settled as a person finds it before typing a question: no long task
 * has ended for `quietMs` (the renderer, loaded once Python is ready, evaluated; the snapshot
 * stored), at most `maxMs`. A question sent the instant Python is ready would measure that one-time
 * load inside the window instead of the page's handling of the stream.
 */
export async function settled(page, quietMs = 1500, maxMs = 20_000) {
  await page.evaluate(
    async ({ quietMs, maxMs }) => {
      const started = performance.now();
      const lastEnd = () => Math.max(0, ...window.benchLongTasks.map(([start, duration]) => start + duration));
      while (performance.now() - started < maxMs && performance.now() - lastEnd() < quietMs) await new Promise((resolve) => setTimeout(resolve, 100));
    },
    { quietMs, maxMs },
  );
}

/**
 * The longest task and the total blocking time (the sum of each task's time beyond 50 ms, as in
 * Lighthouse's TBT) of tasks that started within [from, to]. The API only reports tasks of 50 ms
 * or more, so a longest task of 0 means "none reached 50 ms".
 */
export async function longTasksBetween(page, from, to) {
  // Let the observer deliver the last entries before reading them.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  const tasks = await page.evaluate(() => window.benchLongTasks);
  const inWindow = tasks.filter(([start]) => start >= from && start <= to);
  return {
    longestTaskMs: Math.round(Math.max(0, ...inWindow.map(([, d]) => d))),
    totalBlockingMs: Math.round(inWindow.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0)),
    longTasks: inWindow.length,
  };
}

/**
 * A shared machine stretches every task by the time its thread waited for a core, so a task the
 * Long Tasks API reports as 500 ms may have computed for 20. A Chromium trace records both for each
 * task of the page's main thread: its wall time (`dur`) and the thread's own CPU time (`tdur`).
 * Start before the window, stop after it: the whole trace is the window.
 */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'];

export async function startMainThreadTrace(browser, page) {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
}

/**
 * The page marks the end of what is measured with `console.timeStamp(WINDOW_END)` before the trace
 * is stopped: stopping it is itself a task on the page's thread (the renderer hands over its trace
 * buffer, 60–70 ms of CPU after a 20,000-token answer), which belongs to the bench, not the app.
 */
export const WINDOW_END = 'runpad-bench-window-end';

/**
 * Stops the trace; the renderer main thread that ran the most (the page's) and its tasks up to
 * the page's WINDOW_END mark (all of them without one): the longest by wall time and by CPU time,
 * the 95th percentile of CPU time over tasks of 1 ms or more, and how many reached 50 ms of CPU.
 * `afterWindowLongestCpuMs`: the longest task after the mark (the trace's own stop).
 */
export async function stopMainThreadTrace(browser) {
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8'));
  const mains = new Set(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const windowEnd = traceEvents.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === WINDOW_END)?.ts ?? Infinity;
  const byThread = new Map();
  const afterWindow = [];
  for (const e of traceEvents) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !mains.has(`${e.pid}:${e.tid}`)) continue;
    if (e.ts > windowEnd) {
      afterWindow.push((e.tdur ?? 0) / 1000);
      continue;
    }
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push({ thread: key, ts: e.ts, dur: e.dur ?? 0, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 });
  }
  const busiest = [...byThread.values()].sort((a, b) => b.reduce((s, t) => s + t.cpuMs, 0) - a.reduce((s, t) => s + t.cpuMs, 0))[0] ?? [];
  // What the longest task (by CPU) was made of: its largest events, by their own CPU time.
  const longest = busiest.reduce((max, t) => (!max || t.cpuMs > max.cpuMs ? t : max), null);
  const longestParts = longest
    ? traceEvents
        .filter((e) => e.ph === 'X' && e.name !== 'RunTask' && `${e.pid}:${e.tid}` === longest.thread && e.ts >= longest.ts && e.ts + (e.dur ?? 0) <= longest.ts + longest.dur)
        .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))
        .slice(0, 8)
        .map((e) => `${e.name}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''}${e.args?.data?.url ? ` ${String(e.args.data.url).split('/').pop()}` : ''} ${Math.round((e.tdur ?? 0) / 100) / 10} ms`)
    : [];
  const cpu = busiest.map((t) => t.cpuMs).filter((ms) => ms >= 1).sort((a, b) => a - b);
  const round = (x) => Math.round(x * 10) / 10;
  return {
    longestTaskWallMs: round(Math.max(0, ...busiest.map((t) => t.wallMs))),
    longestTaskCpuMs: round(Math.max(0, ...busiest.map((t) => t.cpuMs))),
    p95TaskCpuMs: round(cpu[Math.min(cpu.length - 1, Math.ceil(cpu.length * 0.95) - 1)] ?? 0),
    tasksOver50CpuMs: busiest.filter((t) => t.cpuMs >= 50).length,
    mainThreadCpuMs: Math.round(busiest.reduce((s, t) => s + t.cpuMs, 0)),
    longestTaskParts: longestParts,
    // When the longest task ran: [ms after the thread's first traced task began, ms before its last one ended].
    longestTaskAt: longest ? [round((longest.ts - busiest[0].ts) / 1000), round((busiest.at(-1).ts + busiest.at(-1).dur - longest.ts - longest.dur) / 1000)] : [],
    afterWindowLongestCpuMs: round(Math.max(0, ...afterWindow)),
  };
}
