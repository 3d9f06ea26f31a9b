// The app's side of bench/duckdb-browser.mjs: open a chat, drop a file as a user drags it in, and run
// one tool call scripted on the fake model, timed in the page's own clock (performance.now()).
import path from 'node:path';

const TERMINAL = ['ok', 'error', 'timeout', 'interrupted', 'crashed'];
/** Generous: a 100 MB CSV on a loaded 2-core machine; every wait is for a state, never a sleep. */
const LONG_MS = 300_000;

/** A new page of `context` on the app, once its interpreter is ready. */
export async function openApp(context, url) {
  const page = await context.newPage();
  // The longest run limit a user may pick: a slow first query on a loaded machine is measured, not cut off.
  await page.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 300_000 })));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-kernel-state="ready"]'), null, { timeout: LONG_MS });
  return page;
}

/**
 * Drops a file from disk onto the conversation: the bytes reach the page as a File backed by the
 * file (setInputFiles on a detached input, no copy through the protocol), then a real drop event.
 * Resolves once the upload is stored and the bytes are in the browser's dataset cache, so the
 * first run reads them from there, as it does when the model answers a few seconds after a drop.
 * Returns the drop's [start, end] in the page's clock.
 */
export async function dropFile(page, filePath, sha256) {
  const name = path.basename(filePath);
  const input = await page.evaluateHandle(() => {
    const element = document.createElement('input');
    element.type = 'file';
    return element;
  });
  await input.setInputFiles(filePath);
  const transfer = await page.evaluateHandle((element) => {
    const data = new DataTransfer();
    data.items.add(element.files[0]);
    return data;
  }, input);
  const start = await page.evaluate(() => performance.now());
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  await page.waitForFunction(
    (fileName) => {
      const chip = [...document.querySelectorAll('[data-upload-status]')].find((element) => element.textContent.includes(fileName));
      if (chip?.getAttribute('data-upload-status') === 'error') throw new Error(`upload of ${fileName} failed: ${chip.textContent}`);
      return chip?.getAttribute('data-upload-status') === 'done';
    },
    name,
    { timeout: LONG_MS, polling: 50 },
  );
  const end = await page.evaluate(() => performance.now());
  // Polled from here: waitForFunction would take the predicate's promise itself as truthy.
  const key = `/__datasets/${sha256}`;
  for (let waited = 0; !(await page.evaluate(async (k) => Boolean(await (await caches.open('runpad-datasets-v1')).match(k)), key)); waited += 200) {
    if (waited > LONG_MS) throw new Error(`${name} never reached the dataset cache`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return [start, end];
}

let runs = 0;

/**
 * Runs `code` as one `tool` call (sql or python) the fake model makes, and times it from the app's
 * `runpad:code-complete` mark to the cell's result on the page (its terminal data-cell-status, seen
 * by a MutationObserver), with the phases between (loading-files, running) from the same observer.
 */
export async function runCell(page, fake, tool, code) {
  runs += 1;
  const trigger = `duckbench-${runs}-${Date.now()}`;
  fake.addScenarios([{ trigger, chunkDelayMs: 0, steps: [{ toolCall: { name: tool, arguments: { code } } }, { text: 'done' }] }]);
  await page.evaluate(() => {
    window.cellTimes = [];
    window.cellObserver?.disconnect();
    // A cell can first appear already past a phase: added cells count as well as changes.
    window.cellObserver = new MutationObserver((records) => {
      const now = performance.now();
      for (const record of records) {
        if (record.type === 'attributes') window.cellTimes.push([record.target.getAttribute('data-cell-status'), now]);
        for (const node of record.addedNodes) {
          const cells = node instanceof Element ? [node, ...node.querySelectorAll('[data-cell-status]')].filter((e) => e.hasAttribute('data-cell-status')) : [];
          for (const cell of cells) window.cellTimes.push([cell.getAttribute('data-cell-status'), now]);
        }
      }
    });
    window.cellObserver.observe(document.body, { attributes: true, childList: true, subtree: true, attributeFilter: ['data-cell-status'] });
  });
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(`run ${trigger}`);
  await composer.press('Enter');
  await page.waitForFunction((terminal) => window.cellTimes.some(([status]) => terminal.includes(status)), TERMINAL, { timeout: LONG_MS, polling: 'raf' });
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: LONG_MS });
  const seen = await page.evaluate(() => {
    const cell = [...document.querySelectorAll('section[data-target]')].at(-1);
    return {
      times: window.cellTimes,
      complete: performance.getEntriesByName('runpad:code-complete').at(-1)?.startTime,
      timeOrigin: performance.timeOrigin,
      status: cell?.getAttribute('data-cell-status'),
      rowCount: cell?.querySelector('[data-testid="table-output"]')?.getAttribute('data-row-count') ?? null,
      text: cell?.textContent ?? '',
    };
  });
  const first = (status) => seen.times.find(([s]) => s === status)?.[1];
  const done = seen.times.find(([s]) => TERMINAL.includes(s))[1];
  const running = first('running') ?? done;
  const loading = first('loading-files') ?? running;
  if (seen.status !== 'ok') throw new Error(`the ${tool} cell ended ${seen.status}: ${seen.text.slice(0, 500)}`);
  return {
    totalMs: done - seen.complete,
    // complete → the run posted (runner start, opening the dataset), → files in /data, → result shown.
    toFilesMs: loading - seen.complete,
    filesMs: running - loading,
    runningMs: done - running,
    // The cell's first status (`writing`: the model has begun the call, and the app starts the
    // target's engine), in the page's clock and as epoch milliseconds.
    appeared: seen.times[0][1],
    appearedEpochMs: seen.timeOrigin + seen.times[0][1],
    from: seen.complete,
    to: done,
    rowCount: seen.rowCount,
    text: seen.text,
  };
}
