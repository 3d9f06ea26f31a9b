import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import type { MirrorRequest } from './fixtures/fake-openai/server.mjs';
import { addScenarios, chatRequestsFor, FAKE_MODEL, openChat, send, waitForTurn } from './helpers';

/**
 * The app under test takes its packages from the fake server's offline mirror: the installed lock
 * file plus one wheel built by the test (e2e/fixtures/test-mirror.mjs). Nothing else is in it.
 * The tests are turns of one conversation in one page (one interpreter), each reading its own cell.
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

/** The Python cell the next turn adds. */
async function nextCell() {
  const cells = page.getByRole('region', { name: 'Python code cell' });
  return cells.nth(await cells.count());
}

test('a package is fetched from the mirror while the code is still streaming, and imports', async () => {
  const trigger = 'e2e-mirror-prefetch';
  // Long enough that the answer streams for several seconds after the import line is complete.
  const filler = Array.from({ length: 30 }, (_, i) => `# step ${i + 1}: the package should already be loading\n`).join('');
  const code = `import runpad_probe\n\n${filler}print("answer:", runpad_probe.answer())\n`;
  await addScenarios([{ trigger, chunkDelayMs: 25, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { echoToolResult: true }] }]);
  const cell = await nextCell();
  await send(page, `Use the probe package. ${trigger}`);
  await expect(cell).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await expect(cell.getByTestId('cell-outputs')).toContainText('answer: 42');
  await waitForTurn(page);

  const [toolCallAnswer, followUp] = await chatRequestsFor(trigger);
  const mirror = (await (await fetch(`${FAKE_MODEL}/__mirror-requests`)).json()) as MirrorRequest[];
  const wheel = mirror.find((r) => r.path === '/mirror/runpad_probe-1.0.0-py3-none-any.whl');
  expect(wheel, 'the wheel was requested from the mirror').toBeDefined();
  expect(toolCallAnswer.finishedAtMs).not.toBeNull();
  // Prefetch: the wheel was asked for before the model had finished writing the code. An order of
  // two events recorded by the same server clock, not a duration.
  expect(wheel!.receivedAtMs).toBeLessThan(toolCallAnswer.finishedAtMs!);
  expect(JSON.stringify(followUp.body.messages.filter((m) => m.role === 'tool'))).toContain('answer: 42');
});

/** numpy is in the lock file but not in the mirror: the run must fail fast and say what to do. */
test('a package that cannot be fetched gives a clear message to the user and to the model', async () => {
  const trigger = 'e2e-missing-package';
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'import numpy as np\nprint(np.arange(3))' } } }, { echoToolResult: true }] },
  ]);
  const cell = await nextCell();
  await send(page, `Use numpy. ${trigger}`);
  await expect(cell).toHaveAttribute('data-cell-status', 'error', { timeout: 60_000 });
  await expect(cell).toContainText('PackageLoadError: Could not load numpy: it could not be downloaded from the package source.');
  // Words for the user; no URL and no instruction meant for the model until the details are asked for.
  await expect(cell).not.toContainText('http://');
  await expect(cell).not.toContainText('Do not retry');
  await cell.getByRole('button', { name: 'Show traceback' }).click();
  await expect(cell).toContainText('npm run mirror -- python');
  await expect(cell).toContainText(new RegExp(`numpy: ${FAKE_MODEL.replaceAll(".", "\\.")}/mirror/numpy-[\\d.]+-cp314`));
  await waitForTurn(page);

  const [, followUp] = await chatRequestsFor(trigger);
  const toolResult = JSON.stringify(followUp.body.messages.filter((m) => m.role === 'tool').at(-1));
  expect(toolResult).toContain('Could not load numpy');
  expect(toolResult).toMatch(new RegExp(`numpy: ${FAKE_MODEL.replaceAll(".", "\\.")}/mirror/numpy-`));
});
