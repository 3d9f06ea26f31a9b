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

test('asked for matplotlib that cannot be loaded, the demo says so and draws an interactive chart instead', async ({ page }) => {
  await openChat(page);
  await send(page, 'Plot a sine wave with matplotlib');
  const figure = page.getByRole('img', { name: 'Figure 1' });
  const chart = page.locator('section[data-target="python"] [data-output="vegalite"]');
  await expect(figure.or(chart)).toBeVisible({ timeout: 60_000 });
  await waitForTurn(page);
  if (await figure.count()) return; // the package source is reachable here
  // Either the page already knew packages cannot be downloaded, or the import failed: a Vega-Lite chart, and why.
  await expect(chart).toHaveAttribute('data-chart-state', 'rendered');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(/matplotlib (can't be downloaded|could not be loaded)/);
});
