// Where the run round trip's time goes: the cell's status timeline (queued → running → done) and
// a CPU profile of the page's main thread over repeated `1+1` runs. Diagnostic, not a benchmark:
// `npm run build && node bench/round-trip-profile.mjs [runs]`.
import os from 'node:os';
import { chromium } from 'playwright';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { startApp } from './servers.mjs';

const RUNS = Number(process.argv[2] ?? 10);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0); // as in run.mjs
const PORT = 3301 + OFFSET;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
});
const fake = await startFakeOpenAI({ port: 4011 + OFFSET });
const app = await startApp(PORT, { PORT: String(PORT), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-rt-${Date.now()}` });
const TERMINAL = ['ok', 'error', 'timeout', 'interrupted', 'crashed'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${PORT}`);
  await page.locator('[data-kernel-state="ready"]').waitFor({ timeout: 60_000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const phases = { queuedToRunning: [], runningToDone: [], total: [] };
  for (let i = 0; i < RUNS; i += 1) {
    const trigger = `rt-${i}-${Math.random().toString(36).slice(2)}`;
    fake.addScenarios([{ trigger, chunkDelayMs: 0, steps: [{ toolCall: { name: 'python', arguments: { code: '1+1' } } }, { text: 'ok' }] }]);
    await page.evaluate(() => {
      window.cellTimes = [];
      window.cellObserver?.disconnect();
      window.cellObserver = new MutationObserver((records) => {
        for (const r of records) window.cellTimes.push([r.target.getAttribute('data-cell-status'), performance.now()]);
      });
      window.cellObserver.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-cell-status'] });
    });
    if (i === 1) await cdp.send('Profiler.start'); // the first run warms up
    // Typed without Playwright's locators, whose injected scripts would fill the profile.
    await page.evaluate(() => document.getElementById('composer').focus());
    await page.keyboard.insertText(`run ${trigger}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => window.cellTimes.some(([s]) => t.includes(s)), TERMINAL);
    await page.waitForFunction(() => [...document.querySelectorAll('button[type="submit"]')].some((b) => b.textContent.trim() === 'Send'));
    const times = await page.evaluate(() => window.cellTimes);
    const queued = await page.evaluate(() => performance.getEntriesByName('runpad:code-complete').at(-1).startTime);
    const running = (times.find(([s]) => s === 'running') ?? times[0])[1];
    const done = times.find(([s]) => TERMINAL.includes(s))[1];
    const marks = await page.evaluate(() => { const m = performance.getEntriesByType('mark').filter((e) => e.name.startsWith('k:')).map((e) => [e.name, e.startTime]); performance.clearMarks(); return m; });
    if (marks.length) console.log(marks.map(([n, t], j) => `${n} ${j ? (t - marks[j - 1][1]).toFixed(1) : '0'}`).join(' | '), `| done ${(done - marks.at(-1)[1]).toFixed(1)} | from code-complete ${(marks[0][1]-queued).toFixed(1)}`);
    if (i > 0) {
      phases.queuedToRunning.push(running - queued);
      phases.runningToDone.push(done - running);
      phases.total.push(done - queued);
    }
  }
  const { profile } = await cdp.send('Profiler.stop');
  for (const [name, xs] of Object.entries(phases)) console.log(`${name}: median ${median(xs).toFixed(1)} ms (${xs.map((x) => x.toFixed(1)).join(', ')})`);
  // Self time per function, top 25.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, k) => {
    const n = byId.get(id);
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[k] ?? 0) / 1000);
  });
  const top = [...self.entries()].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [k, ms] of top) console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
} finally {
  await browser.close();
  app.kill();
  await fake.close();
}
