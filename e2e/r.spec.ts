import { expect, test, type Page } from '@playwright/test';
import { addScenarios, chatRequestsFor, dropCsv, send } from './helpers';

/** R in the browser (webR, lib/targets/r): offline, from the app's own origin. Each test starts one R. */

/** R needs no Python: the chat is open once the composer is (Python keeps starting beside R). */
async function openChat(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByLabel('Message', { exact: true })).toBeEditable({ timeout: 60_000 });
}

const CSV = ['month,ads,sales', ...Array.from({ length: 12 }, (_, i) => `${i + 1},${10 + i * 3},${(20 + i * 7.5 + (i % 3)).toFixed(1)}`)].join('\n') + '\n';

test('R reads a dropped CSV: summary(lm()) reaches the model, a base plot is an image and a PNG, a data frame is a table, an error then its fix', async ({ page }) => {
  test.setTimeout(180_000);
  const trigger = `e2e-r-lm-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'r', arguments: { code: 'sales <- read.csv("/data/sales.csv")\nfit <- lm(sales ~ ads, data = sales)\nsummary(fit)' } } },
        { toolCall: { name: 'r', arguments: { code: 'plot(sales$ads, sales$sales, main = "Sales by ads")\nabline(fit, col = "red")\nhead(sales, 4)' } } },
        { toolCall: { name: 'r', arguments: { code: 'mean(sales$revenue_total)\nstop("no column revenue_total in ", paste(names(sales), collapse = ", "))' } } },
        { toolCall: { name: 'r', arguments: { code: 'cat("mean sales:", mean(sales$sales), "\\n")\nmessage("rows: ", nrow(sales))' } } },
        { text: 'Sales rise with ads.' },
      ],
    },
  ]);
  await openChat(page);
  await dropCsv(page, 'sales.csv', CSV);
  await send(page, `Fit sales on ads in R. ${trigger}`);
  await expect(page.locator('#conversation').getByText('Sales rise with ads.')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({ timeout: 120_000 });

  const cells = page.locator('section[data-target="r"]');
  await expect(cells).toHaveCount(4);
  // summary(lm()) as R prints it.
  await expect(cells.nth(0)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(0)).toContainText('Coefficients:');
  await expect(cells.nth(0)).toContainText('Multiple R-squared');
  // A base plot as an image, and head() as a table with R's columns.
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  const figure = cells.nth(1).getByRole('img', { name: /Figure/ });
  await expect(figure).toBeVisible();
  expect(await figure.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await expect(cells.nth(1).getByTestId('table-output')).toHaveAttribute('data-row-count', '4');
  await expect(cells.nth(1).getByTestId('table-output')).toContainText('ads');
  // A warning and an error, each with its call or message; then the fix runs.
  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(2)).toContainText('argument is not numeric or logical');
  await expect(cells.nth(2)).toContainText('no column revenue_total in month, ads, sales');
  await expect(cells.nth(3)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(3)).toContainText('mean sales:');
  await expect(cells.nth(3)).toContainText('rows: 12');

  const requests = await chatRequestsFor(trigger);
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  // The coefficients of the fit reached the model, computed by R.
  expect(toolResults).toMatch(/\(Intercept\)\s+-?\d+\.\d+/);
  expect(toolResults).toMatch(/ads\s+\d+\.\d+/);
  expect(toolResults).toContain('no column revenue_total');
  expect(toolResults).toContain('mean sales:');
  expect(JSON.stringify(requests.at(-1)!.body.messages)).toMatch(/data:image\/png;base64,|"image_url"/);
  expect(JSON.stringify(requests[0].body.tools)).toContain('webR');
});

test('R keeps state between runs; repeat {} is stopped by the time limit with the page responsive; library(ggplot2) fails in words offline', async ({ page }) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 4000 })));
  const first = `e2e-r-state-${Date.now()}`;
  const second = `e2e-r-loop-${Date.now()}`;
  await addScenarios([
    { trigger: first, steps: [{ toolCall: { name: 'r', arguments: { code: 'counter <- 41\ncounter' } } }, { text: 'Counter set.' }] },
    {
      trigger: second,
      steps: [
        { toolCall: { name: 'r', arguments: { code: 'i <- 0\nrepeat { i <- i + 1 }' } } },
        { toolCall: { name: 'r', arguments: { code: 'library(ggplot2)' } } },
        { toolCall: { name: 'r', arguments: { code: 'cat("counter is", counter + 1, "and i ran", i > 0, "\\n")' } } },
        { text: 'Done looping.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Set a counter in R. ${first}`);
  await expect(page.locator('#conversation').getByText('Counter set.')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('section[data-target="r"]').first()).toContainText('[1] 41');

  await send(page, `Loop forever. ${second}`);
  const cells = page.locator('section[data-target="r"]');
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'timeout', { timeout: 60_000 });
  await expect(page.locator('#conversation').getByText('Done looping.')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({ timeout: 120_000 });
  // The page answered while R looped and after: the composer takes text.
  await page.getByLabel('Message', { exact: true }).fill('still responsive');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('still responsive');
  await expect(cells.nth(1)).toContainText('time limit');
  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(2)).toContainText("The R package 'ggplot2' is not available");
  await expect(cells.nth(2)).toContainText('Use base R');
  // Interrupted, not killed: variables from the first turn and the loop are still there.
  await expect(cells.nth(3)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(3)).toContainText('counter is 42 and i ran TRUE');

  const requests = await chatRequestsFor(second);
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('Use base R');
  expect(toolResults).toContain('time limit');
});
