import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, chatRequestsFor, FAKE_MODEL, openChat, send, waitForHydration, waitForTurn } from './helpers';
import type { RecordedRequest } from './fixtures/fake-openai/server.mjs';

/**
 * The conversation outlives the page: what a reload, a failing model or a second tab does to a
 * conversation, each reproduced against the fake model with its fault injection.
 */

const cells = (page: Page) => page.getByRole('region', { name: 'Python code cell' });
/** Text in the conversation itself (the fake model's titles repeat its answers in the header). */
const chatText = (page: Page, text: string) => page.locator('#conversation').getByText(text);

async function allRequests(): Promise<RecordedRequest[]> {
  return (await (await fetch(`${FAKE_MODEL}/__requests`)).json()) as RecordedRequest[];
}

test('a reload during a run leaves no ghost: the cell is stored as cut off, Run again works, and the model is told', async ({ page }) => {
  const stamp = Date.now();
  // Triggers must not contain one another: the fake model picks the first one it finds.
  const trigger = `e2e-reload-mid-run-${stamp}`;
  const next = `e2e-after-cut-off-${stamp}`;
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'import time\nprint("started")\ntime.sleep(60)\nprint("finished")' } } }, { text: 'never reached' }] },
    { trigger: next, steps: [{ text: 'I see the run was cut off.' }] },
  ]);
  await openChat(page);
  await send(page, `Sleep a minute. ${trigger}`);
  await expect(cells(page).first()).toHaveAttribute('data-cell-status', 'running');
  await page.reload();
  const cell = cells(page).first();
  await expect(cell).toHaveAttribute('data-cell-status', 'page-closed');
  await expect(cell).toContainText('cut off by a reload');
  await expect(cell.getByRole('button', { name: 'Run again' })).toBeVisible();
  // A stored conversation starts Python when it is needed (typing, a run), not with the page.
  await waitForHydration(page);

  await send(page, `What happened? ${next}`);
  await expect(chatText(page, 'I see the run was cut off.')).toBeVisible();
  const [request] = await chatRequestsFor(next);
  const toolResults = JSON.stringify(request.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('page-closed');
  expect(toolResults).toContain('The page was closed or reloaded while this ran');
});

test('after a reload, earlier runs (Python, SQL and R) are replayed by themselves before the next run, and the model is told in one line', async ({ page }) => {
  // Three engines start here, twice (DuckDB's and webR's wasm each took ~25 s on a machine at load
  // 20): generous limits, as in duckdb.spec and r.spec; every wait is for a state.
  test.setTimeout(300_000);
  const stamp = Date.now();
  const trigger = `e2e-restore-define-${stamp}`;
  const after = `e2e-restore-use-${stamp}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: 'answer = 41\nprint("defined")' } } },
        { toolCall: { name: 'sql', arguments: { code: 'CREATE TABLE kept AS SELECT 41 AS v' } } },
        { toolCall: { name: 'r', arguments: { code: 'kept_r <- 41\ncat("r defined\\n")' } } },
        { text: 'Defined it.' },
      ],
    },
    {
      trigger: after,
      steps: [
        // R first: its state comes back before the next R run, with Python's and SQL's before it.
        { toolCall: { name: 'r', arguments: { code: 'cat("kept_r is", kept_r + 1, "\\n")' } } },
        { toolCall: { name: 'python', arguments: { code: 'print("answer is", answer + 1)' } } },
        { toolCall: { name: 'sql', arguments: { code: 'SELECT v + 1 AS from_sql FROM kept' } } },
        { text: 'Used it.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Define it. ${trigger}`);
  await expect(chatText(page, 'Defined it.')).toBeVisible({ timeout: 120_000 });
  await waitForTurn(page);
  await page.reload();
  // A stored conversation starts Python when it is needed (typing, a run), not with the page.
  await waitForHydration(page);
  // A new interpreter: the page says what it lacks and offers to restore it.
  await expect(page.getByTestId('restore-banner')).toHaveAttribute('data-restore-state', 'offered');
  await send(page, `Use it. ${after}`);
  await expect(chatText(page, 'Used it.')).toBeVisible({ timeout: 120_000 });
  const rCell = page.getByRole('region', { name: 'R code cell' }).nth(1);
  await expect(rCell).toHaveAttribute('data-cell-status', 'ok');
  await expect(rCell).toContainText('kept_r is 42');
  await expect(cells(page).nth(1)).toContainText('answer is 42');
  // The table the SQL run made came back too: restore replays SQL runs in order with Python's.
  const sqlCell = page.getByRole('region', { name: 'SQL code cell' }).nth(1);
  await expect(sqlCell).toHaveAttribute('data-cell-status', 'ok');
  await expect(sqlCell.getByTestId('table-output')).toHaveAttribute('data-row-count', '1');
  await expect(sqlCell).toContainText('from_sql');
  // The R run, the first after the reload, carries the one line; no later run claims a lost state
  // (a Python run does not lack R's runs, nor R Python's).
  const requests = await chatRequestsFor(after);
  const [first] = requests.filter((r) => JSON.stringify(r.body.messages).includes('kept_r is 42'));
  expect(JSON.stringify(first.body.messages)).toContain('The interpreter was restored by re-running 3 earlier runs.');
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('from_sql');
  expect(toolResults).not.toContain('This ran in a new interpreter');
});

test('model failures are shown in words with a way out, and a failed turn leaves nothing half-stored', async ({ page }) => {
  const base = `e2e-failures-${Date.now()}`;
  await addScenarios([
    { trigger: `${base}-500`, steps: [{ fault: { status: 500 }, times: 1 }, { text: 'Fine after a retry.' }] },
    { trigger: `${base}-401`, steps: [{ fault: { status: 401 } }] },
    { trigger: `${base}-429`, steps: [{ fault: { status: 429, headers: { 'retry-after': '2' } }, times: 1 }, { text: 'Waited as asked.' }] },
    { trigger: `${base}-bad`, steps: [{ fault: { malformed: true }, text: 'A FRAGMENT that must not stay' }] },
    { trigger: `${base}-hang`, steps: [{ fault: { hang: 'after-headers', afterChunks: 1 }, text: 'Silence after this' }] },
  ]);
  await openChat(page);

  await send(page, `Five hundred. ${base}-500`);
  const error = page.getByTestId('model-error');
  await expect(error).toHaveAttribute('data-cause', 'provider');
  await expect(error).toContainText('The model provider had an error (HTTP 500)');
  await expect(error).not.toContainText('could not answer: The model');
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(chatText(page, 'Fine after a retry.')).toBeVisible();
  await waitForTurn(page);

  await send(page, `Bad key. ${base}-401`);
  await expect(error).toHaveAttribute('data-cause', 'auth');
  await expect(error).toContainText('OPENAI_API_KEY');
  await expect(error.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  await send(page, `Rate limited. ${base}-429`);
  await expect(page.getByTestId('retry-countdown')).toContainText(/Retrying by itself in \d s/);
  await expect(chatText(page, 'Waited as asked.')).toBeVisible();
  await waitForTurn(page);

  // The e2e app gives up after 6 s of silence (RUNPAD_MODEL_IDLE_TIMEOUT_MS in playwright.config.ts).
  await send(page, `Hang. ${base}-hang`);
  await expect(error).toHaveAttribute('data-cause', 'timeout');
  await expect(error).toContainText('timed out');
  await expect(page.getByText('Thinking…')).toHaveCount(0);

  await send(page, `Broken stream. ${base}-bad`);
  await expect(error).toHaveAttribute('data-cause', 'malformed');
  await expect(chatText(page, 'A FRAGMENT')).toHaveCount(0);
  await page.reload();
  await expect(chatText(page, 'Fine after a retry.')).toBeVisible();
  await expect(chatText(page, 'A FRAGMENT')).toHaveCount(0);
});

test('two tabs: a stale tab is refused instead of interleaving, learns the latest messages, and learns them on focus', async ({ playwright, baseURL }) => {
  const context = await newVisitorContext(playwright, baseURL!);
  const first = await firstPage(context);
  const trigger = `e2e-two-tabs-${Date.now()}`;
  await addScenarios([
    { trigger: `${trigger}-a`, steps: [{ text: 'Answer to tab A.' }] },
    { trigger: `${trigger}-b`, steps: [{ text: 'Answer to tab B.' }] },
    { trigger: `${trigger}-c`, steps: [{ text: 'Answer to tab A again.' }] },
  ]);
  await openChat(first);
  await send(first, `Start. ${trigger}-a`);
  await expect(chatText(first, 'Answer to tab A.')).toBeVisible();
  await waitForTurn(first);
  const second = await context.newPage();
  await second.goto(first.url());
  await expect(chatText(second, 'Answer to tab A.')).toBeVisible();
  await waitForHydration(second); // its focus listener is attached by then

  // Tab A goes on; tab B has not looked since.
  await first.bringToFront();
  await send(first, `More. ${trigger}-c`);
  await expect(chatText(first, 'Answer to tab A again.')).toBeVisible();
  await waitForTurn(first);
  await second.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(chatText(second, 'Answer to tab A again.')).toBeVisible();

  // A send from a tab that missed a message is refused, not interleaved.
  await send(first, `Once more. ${trigger}-a`);
  await waitForTurn(first);
  await send(second, `From B. ${trigger}-b`);
  await expect(second.getByTestId('model-error')).toContainText('changed in another tab');
  await expect(chatText(second, 'From B.')).toHaveCount(0);
  const stored = await (await first.request.get(`/api/conversations/${first.url().split('/c/')[1]}`)).json();
  const texts = (stored.messages as Array<{ role: string; parts: Array<{ type: string; text?: string }> }>).map((m) => `${m.role}:${m.parts.find((p) => p.type === 'text')?.text ?? ''}`);
  expect(texts.filter((t) => t.startsWith('user:'))).toEqual([`user:Start. ${trigger}-a`, `user:More. ${trigger}-c`, `user:Once more. ${trigger}-a`]);
  await context.close();
});

test('the title is generated once, not at every step of the first turn', async ({ page }) => {
  const trigger = `e2e-title-once-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: 'print(1)' } } },
        { toolCall: { name: 'python', arguments: { code: 'print(2)' } } },
        { toolCall: { name: 'python', arguments: { code: 'print(3)' } } },
        { text: 'Three runs done.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Three runs. ${trigger}`);
  await expect(chatText(page, 'Three runs done.')).toBeVisible();
  await waitForTurn(page);
  await expect.poll(async () => (await allRequests()).filter((r) => !r.body.tools && JSON.stringify(r.body.messages).includes(trigger)).length).toBe(1);
  // Still one after the turn has settled and the page reloads.
  await page.reload();
  await expect(chatText(page, 'Three runs done.')).toBeVisible();
  expect((await allRequests()).filter((r) => !r.body.tools && JSON.stringify(r.body.messages).includes(trigger))).toHaveLength(1);
});
