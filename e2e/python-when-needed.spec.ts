import { expect, test } from './test';
import { addScenarios, openChat, send, waitForHydration, waitForTurn } from './helpers';

/**
 * When Python starts (components/chat/chat.tsx, `pythonStart`): a new conversation starts it with
 * the page, since a question is coming; a stored conversation opened again is there to be read
 * first, so it starts Python only when something needs it (the person typing, a run, Reload them,
 * Start): reading costs no download and no interpreter, which a phone or a metered connection feels.
 */
test('a stored conversation opened again starts Python only once the person types; its stored results show meanwhile', async ({ page }) => {
  const first = `e2e-when-needed-first-${Date.now()}`;
  const next = `e2e-when-needed-next-${Date.now()}`;
  await addScenarios([
    { trigger: first, steps: [{ toolCall: { name: 'python', arguments: { code: 'print("stored", 6 * 7)' } } }, { text: 'First answer.' }] },
    { trigger: next, steps: [{ toolCall: { name: 'python', arguments: { code: 'print("later", 7 * 8)' } } }, { text: 'Second answer.' }] },
  ]);
  await openChat(page);
  await send(page, `Run it. ${first}`);
  await expect(page.getByTestId('cell-outputs').first()).toContainText('stored 42');
  await waitForTurn(page);
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);

  await page.reload();
  await waitForHydration(page);
  const status = page.getByTestId('kernel-status');
  await expect(status).toHaveAttribute('data-kernel-state', 'not-started');
  await expect(status).toContainText('Python starts when you ask');
  await expect(page.getByTestId('cell-outputs').first()).toContainText('stored 42');
  // No interpreter's worker in the page: none was booted with it, none made since.
  expect(page.workers().map((worker) => worker.url()).filter((url) => url.includes('python'))).toEqual([]);

  // Typing is the sign a question is coming: Python starts before it is sent.
  await page.getByLabel('Message', { exact: true }).fill('Run it again');
  await expect(status).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
  expect(page.workers().some((worker) => worker.url().includes('python'))).toBe(true);
  await send(page, `Run more. ${next}`);
  await expect(page.getByTestId('cell-outputs').last()).toContainText('later 56');
  await waitForTurn(page);
});
