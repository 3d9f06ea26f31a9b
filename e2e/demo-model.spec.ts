import { expect, test } from './test';
import { openChat, send, waitForTurn } from './helpers';

// A new user's first visit: Python starts cold and makes its memory snapshot (every other spec's
// browser holds it already, e2e/test.ts).
test.use({ firstVisit: true });

test('with no model configured, the offline demo model computes with real Python', async ({ page }) => {
  await openChat(page);
  await expect(page.getByTestId('model-label')).toHaveText('Offline demo model');
  await send(page, 'Compute the 25th Fibonacci number');
  const cell = page.getByRole('region', { name: 'Python code cell' });
  await expect(cell.getByTestId('cell-outputs')).toContainText('fibonacci(25) = 75025');
  await waitForTurn(page);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('So: fibonacci(25) = 75025');
});

test('the demo model fixes its own error from the traceback', async ({ page }) => {
  await openChat(page);
  await send(page, 'Show me how you fix an error in your code');
  const cells = page.getByRole('region', { name: 'Python code cell' });
  await expect(cells.first()).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(1)).toContainText('mean = 3.875');
  await waitForTurn(page);
});

test('the demo model is honest when matplotlib cannot be loaded', async ({ page }) => {
  await openChat(page);
  await send(page, 'Plot a sine wave');
  const cell = page.getByRole('region', { name: 'Python code cell' });
  await expect(cell).toHaveAttribute('data-cell-status', /error|ok/, { timeout: 60_000 });
  await waitForTurn(page);
  const status = await cell.getAttribute('data-cell-status');
  if (status === 'ok') {
    await expect(cell.getByRole('img', { name: 'Figure 1' })).toBeVisible(); // the package source is reachable here
  } else {
    await expect(cell).toContainText('Could not load matplotlib');
    await expect(page.locator('[data-role="assistant"]').last()).toContainText('could not be loaded');
  }
});
