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
