import { expect, test } from '@playwright/test';
import { addScenarios, chatRequestsFor, openChat, send, waitForTurn } from './helpers';

/**
 * This machine cannot reach the package source (Pyodide's CDN), which is exactly the offline
 * case: the run must fail fast and say which package, from where, and what to do.
 */
test('a package that cannot be fetched gives a clear message to the user and to the model', async ({ page }) => {
  const trigger = 'e2e-missing-package';
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'import numpy as np\nprint(np.arange(3))' } } }, { echoToolResult: true }] },
  ]);
  await openChat(page);
  const started = Date.now();
  await send(page, `Use numpy. ${trigger}`);
  const cell = page.getByRole('region', { name: 'Python code cell' });
  await expect(cell).toHaveAttribute('data-cell-status', 'error', { timeout: 60_000 });
  await expect(cell).toContainText('PackageLoadError: Could not load numpy');
  await cell.getByRole('button', { name: 'Show traceback' }).click();
  await expect(cell).toContainText('npm run pyodide:mirror');
  await expect(cell).toContainText(/numpy: https?:\/\/\S+numpy-[\d.]+-cp314/);
  await waitForTurn(page);
  expect(Date.now() - started).toBeLessThan(45_000);

  const [, followUp] = await chatRequestsFor(trigger);
  const toolResult = JSON.stringify(followUp.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResult).toContain('Could not load numpy');
  expect(toolResult).toContain('Do not retry the same import');
});
