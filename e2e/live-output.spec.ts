import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, chatRequestsFor, openChat, send, waitForTurn } from './helpers';

/**
 * What a run prints reaches the page while the code runs (a sleep, a busy loop, a progress line
 * updated in place), and a run cut off by a reload keeps what it had printed and how long it ran.
 */

/**
 * The tests are turns of one conversation in one page (one interpreter): each reads its own turn's
 * cell, the last one; the reload comes last.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;

test.beforeAll(async ({ playwright, baseURL }) => {
  page = await firstPage(await newVisitorContext(playwright, baseURL!));
  await openChat(page);
});

test.afterAll(async () => {
  await page.context().close();
});

/** The last Python cell: the one of the turn a test sent. */
const lastCell = () => page.getByRole('region', { name: 'Python code cell' }).last();

/** Sends a turn and waits until its own cell is on the page. */
async function sendTurn(text: string): Promise<void> {
  const cells = page.getByRole('region', { name: 'Python code cell' });
  const before = await cells.count();
  await send(page, text);
  await expect(cells).toHaveCount(before + 1);
}

/**
 * Waits until the last cell is still running, its outputs already hold `shown` and not yet
 * `notYet` (the next line the code prints): all in one look, so text that arrives only in
 * batches with the next line, or at the end, never satisfies it.
 */
async function runningWith(shown: string, notYet: string): Promise<void> {
  await page.waitForFunction(
    ([wanted, later]) => {
      const cell = [...document.querySelectorAll('section[data-cell-status]')].at(-1);
      const text = cell?.querySelector('[data-testid="cell-outputs"]')?.textContent ?? '';
      return cell?.getAttribute('data-cell-status') === 'running' && text.includes(wanted) && !text.includes(later);
    },
    [shown, notYet] as const,
    { timeout: 60_000 },
  );
}

test('ticks printed a second apart appear one by one while the cell runs, during a sleep and during a busy loop', async () => {
  const stamp = Date.now();
  const sleeping = `e2e-live-sleep-${stamp}`;
  const busy = `e2e-live-busy-${stamp}`;
  await addScenarios([
    {
      trigger: sleeping,
      steps: [{ toolCall: { name: 'python', arguments: { code: 'import time\nfor i in range(1, 5):\n    print(f"tick {i}", flush=True)\n    time.sleep(1)\nprint("all ticks")' } } }, { text: 'Slept.' }],
    },
    {
      trigger: busy,
      steps: [
        {
          toolCall: {
            name: 'python',
            // Three seconds of computing: enough to see step 2 alone on the page (each step a second).
            arguments: { code: 'import time\nfor i in range(1, 4):\n    print(f"step {i}")\n    t = time.monotonic()\n    while time.monotonic() - t < 1:\n        pass\nprint("all steps")' },
          },
        },
        { text: 'Computed.' },
      ],
    },
  ]);
  await sendTurn(`Tick. ${sleeping}`);
  await runningWith('tick 1', 'tick 2');
  await runningWith('tick 2', 'tick 3');
  await expect(lastCell().getByTestId('cell-outputs')).not.toContainText('all ticks');
  await expect(lastCell()).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await waitForTurn(page);

  await sendTurn(`Compute. ${busy}`);
  // Nothing is written during the second of computing: the page's flush signal sends each step.
  await runningWith('step 1', 'step 2');
  await runningWith('step 2', 'step 3');
  await expect(lastCell()).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await expect(lastCell().getByTestId('cell-outputs')).toContainText('all steps');
  await waitForTurn(page);
});

test('a progress line updated with \\r shows and is sent at its last state', async () => {
  const trigger = `e2e-live-progress-${Date.now()}`;
  const code = 'import sys, time\nfor i in range(1, 31):\n    sys.stderr.write(f"\\rprogress {i}/30")\n    time.sleep(0.05)\nsys.stderr.write("\\n")\nprint("finished")';
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { echoToolResult: true, prefix: 'Run said: ' }] }]);
  await sendTurn(`Show progress. ${trigger}`);
  const outputs = lastCell().getByTestId('cell-outputs');
  await expect(lastCell()).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await expect(outputs).toContainText('progress 30/30');
  await expect(outputs).not.toContainText('progress 29/30');
  await expect(outputs.locator('[data-stream="stderr"] pre')).toHaveText('progress 30/30\n');
  await waitForTurn(page);
  const requests = await chatRequestsFor(trigger);
  const tool = JSON.stringify(requests[1].body.messages.filter((m) => m.role === 'tool'));
  expect(tool).toContain('progress 30/30');
  expect(tool).not.toContain('progress 29/30');
});

test('a cell that awaits shows what it printed before each await while it waits', async () => {
  const trigger = `e2e-live-await-${Date.now()}`;
  const code = 'import asyncio\nfor i in range(1, 5):\n    print(f"awaited {i}")\n    await asyncio.sleep(1)\nprint("all awaited")';
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'Awaited.' }] }]);
  await sendTurn(`Await. ${trigger}`);
  await runningWith('awaited 1', 'awaited 2');
  await runningWith('awaited 2', 'awaited 3');
  await expect(lastCell()).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await waitForTurn(page);
});

test('a run cut off by a reload keeps the lines it had printed and how long it had run', async () => {
  const trigger = `e2e-live-reload-${Date.now()}`;
  const code = 'import time\nfor i in range(1, 121):\n    print(f"line {i}", flush=True)\n    time.sleep(1)';
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'never reached' }] }]);
  // Saved while it ran (every 2 s from its first second): the first save that holds outputs, stored
  // before the reload (on a loaded machine the server may store it after the page has printed its
  // third line; the save made as the page goes away races the reload's own request).
  const stored = page.waitForResponse((response) => response.request().method() === 'PUT' && /\/progress$/.test(new URL(response.url()).pathname) && response.ok() && (response.request().postData() ?? '').includes('"outputs"'));
  await sendTurn(`Print for two minutes. ${trigger}`);
  await runningWith('line 3', 'line 120');
  await stored;
  await page.reload();
  const cell = lastCell();
  await expect(cell).toHaveAttribute('data-cell-status', 'page-closed');
  await expect(cell.getByTestId('cell-outputs')).toContainText('line 1');
  await expect(cell).toContainText(/cut off by a reload after [1-9][\d.]* s/);
});
