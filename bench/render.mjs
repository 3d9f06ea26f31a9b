// Rendering under load, driven through the fake model like a real turn: a run with heavy output
// (1 MB of stdout and 20 images) and a long streamed markdown answer. Each repetition uses a
// fresh page (a new conversation) in one browser context, so earlier content does not pile up.
import { longTasksBetween, recordLongTasks, settled, startMainThreadTrace, stopMainThreadTrace, WINDOW_END } from './main-thread.mjs';
import { OUTPUT_CODE, OUTPUT_IMAGES, markdownAnswer } from './payloads.mjs';

const TERMINAL = ['ok', 'error', 'timeout', 'interrupted', 'crashed'];
const round = (x) => Math.round(x * 10) / 10;

/**
 * Resolves when the composer offers Send again (the turn is over). Checked with a selector, not
 * Playwright's role query: that computes accessible names over the whole answer in the page's
 * thread (60–110 ms after a 20,000-token answer), a task of the bench's own that counted as the
 * app's longest.
 */
function turnOver(page) {
  return page.waitForFunction(() => [...document.querySelectorAll('form button[type="submit"]')].some((b) => b.textContent?.trim() === 'Send'), null, { timeout: 60_000, polling: 100 });
}

async function send(page, text) {
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(text);
  const sentAt = await page.evaluate(() => performance.now());
  await composer.press('Enter');
  return sentAt;
}

/**
 * Watches, in the page, for the cell to be queued and for everything it produced to be on screen:
 * a terminal status, the stdout block, and all images decoded (complete with a width).
 */
async function watchCell(page, images) {
  await page.evaluate((args) => {
    window.benchCell = { queuedAt: null, doneAt: null, renderedAt: null };
    const check = () => {
      const cell = document.querySelector('section[data-cell-status]');
      const status = cell?.getAttribute('data-cell-status');
      if (cell && window.benchCell.queuedAt === null) window.benchCell.queuedAt = performance.now();
      if (cell && args.terminal.includes(status)) {
        window.benchCell.doneAt ??= performance.now();
        const imgs = [...cell.querySelectorAll('figure img')];
        const decoded = imgs.length >= args.images && imgs.every((img) => img.complete && img.naturalWidth > 0);
        if (decoded && cell.querySelector('[data-output="stream"]')) {
          window.benchCell.renderedAt = performance.now();
          return;
        }
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, { terminal: TERMINAL, images });
}

async function outputOnce(browser, context, start, fake) {
  const { page } = await start(context);
  await recordLongTasks(page);
  await settled(page);
  const trigger = `bench-output-${Math.random().toString(36).slice(2)}`;
  fake.addScenarios([{ trigger, chunkDelayMs: 0, steps: [{ toolCall: { name: 'python', arguments: { code: OUTPUT_CODE } } }, { text: 'done' }] }]);
  await watchCell(page, OUTPUT_IMAGES);
  await startMainThreadTrace(browser, page);
  const sentAt = await send(page, `run ${trigger}`);
  await page.waitForFunction(() => window.benchCell.renderedAt !== null, null, { timeout: 120_000 });
  await turnOver(page);
  const cell = await page.evaluate(() => window.benchCell);
  const endedAt = await page.evaluate((mark) => (console.timeStamp(mark), performance.now()), WINDOW_END);
  const traced = await stopMainThreadTrace(browser);
  const tasks = await longTasksBetween(page, sentAt, endedAt);
  await page.close();
  return { codeToRenderedMs: cell.renderedAt - cell.queuedAt, runDoneToRenderedMs: cell.renderedAt - cell.doneAt, ...tasks, ...traced };
}

async function streamOnce(browser, context, start, fake, { tokens, chunkChars, chunkDelayMs }) {
  const { page } = await start(context);
  await recordLongTasks(page);
  await settled(page);
  const trigger = `bench-stream-${Math.random().toString(36).slice(2)}`;
  const marker = `end of answer ${trigger}`;
  const text = markdownAnswer(tokens, marker);
  fake.addScenarios([{ trigger, chunkDelayMs, chunkChars, steps: [{ text }] }]);
  await page.evaluate(() => {
    window.benchStream = { firstAt: null };
    const poll = () => {
      if (document.querySelector('[data-role="assistant"]')?.textContent) window.benchStream.firstAt = performance.now();
      else requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  });
  await startMainThreadTrace(browser, page);
  const sentAt = await send(page, `write ${trigger}`);
  await page.waitForFunction((m) => document.querySelector('[data-role="assistant"]')?.textContent?.includes(m), marker, { timeout: 180_000, polling: 100 });
  await turnOver(page);
  const endedAt = await page.evaluate((mark) => (console.timeStamp(mark), performance.now()), WINDOW_END);
  const traced = await stopMainThreadTrace(browser);
  const firstAt = await page.evaluate(() => window.benchStream.firstAt);
  const tasks = await longTasksBetween(page, sentAt, endedAt);
  await page.close();
  // First text on screen → last text on screen: the rate the reader sees.
  const streamMs = endedAt - firstAt;
  return { streamMs, shownTokensPerSecond: (text.length / 4 / streamMs) * 1000, ...tasks, ...traced };
}

function summarise(runs, stats) {
  const out = {};
  for (const key of Object.keys(runs[0])) out[key] = Array.isArray(runs[0][key]) ? runs.map((r) => r[key]) : stats(runs.map((r) => r[key]));
  return out;
}

export async function outputHandling({ browser, start, fake, repeat, stats }) {
  const context = await browser.newContext();
  const runs = [];
  for (let i = 0; i < repeat; i += 1) runs.push(await outputOnce(browser, context, start, fake));
  await context.close();
  return { stdoutBytes: 1_000_000, images: OUTPUT_IMAGES, ...summarise(runs, stats) };
}

/**
 * 20,000 tokens at about 2,000 tokens/s (8,000 characters/s): 48-character chunks with 5 ms
 * between them, since Node's timers add ~1 ms to each delay (the default 6-character chunks would
 * need a sub-millisecond delay). The rate the fake model achieves alone is measured and reported.
 */
export const STREAM = { tokens: 20_000, chunkChars: 48, chunkDelayMs: 5 };

/** The fake model's own streaming rate for this answer, read directly (no app, no browser). */
async function servedRate(fake) {
  const trigger = `bench-served-${Math.random().toString(36).slice(2)}`;
  const text = markdownAnswer(STREAM.tokens, trigger);
  fake.addScenarios([{ trigger, chunkDelayMs: STREAM.chunkDelayMs, chunkChars: STREAM.chunkChars, steps: [{ text }] }]);
  const t0 = performance.now();
  const response = await fetch(`${fake.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: trigger }] }),
  });
  await response.text();
  return round((text.length / 4 / (performance.now() - t0)) * 1000);
}

export async function streamingRender({ browser, start, fake, repeat, stats }) {
  const servedTokensPerSecond = await servedRate(fake);
  const context = await browser.newContext();
  const runs = [];
  for (let i = 0; i < repeat; i += 1) runs.push(await streamOnce(browser, context, start, fake, STREAM));
  await context.close();
  return { ...STREAM, servedTokensPerSecond, ...summarise(runs, stats) };
}
