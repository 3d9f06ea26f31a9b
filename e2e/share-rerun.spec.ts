import { expect, test, type Page, type Playwright, newVisitorContext, firstPage } from './test';
import { addScenarios, dropCsv, openChat, PNG_CHART_CODE, send, waitForCells, waitForTurn } from './helpers';
import { seriousViolations } from './axe';

/**
 * "Re-run in my browser" on a share page: another visitor replays the snapshot's runs in their
 * own interpreter, and every cell says whether its outputs came out the same.
 */

const CSV = 'region,units,price\nnorth,12,2.5\nsouth,30,1.25\nnorth,8,4.0\nwest,50,1.0\n';

/** Shares the open conversation; returns the link. */
async function share(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareUrl = await page.getByLabel('Share link').inputValue();
  expect(shareUrl).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
  return shareUrl;
}

/** Opens the link in another visitor's browser: no cookie and no cached datasets (a returning browser: it holds Python's snapshot and the app's files). */
async function openAsVisitor(playwright: Playwright, baseURL: string | undefined, shareUrl: string, colorScheme: 'light' | 'dark' = 'light') {
  const context = await newVisitorContext(playwright, baseURL!, { colorScheme, viewport: { width: 1000, height: 900 } });
  const visitor = await firstPage(context);
  await visitor.goto(shareUrl);
  return { context, visitor };
}

test('a visitor re-runs a shared conversation — print, figure, SQL over its CSV, diagram, error, R state and an R plot — and every cell is the same', async ({ page, playwright, baseURL }) => {
  test.setTimeout(420_000);
  const trigger = `e2e-rerun-alike-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: 'answer = 6 * 7\nprint("the answer is", answer)' } } },
        { toolCall: { name: 'python', arguments: { code: PNG_CHART_CODE } } },
        { toolCall: { name: 'sql', arguments: { code: 'SELECT region, SUM(units) AS total FROM sales GROUP BY region ORDER BY total DESC' } } },
        { toolCall: { name: 'graphviz', arguments: { code: 'digraph G {\n  load -> query -> chart\n}' } } },
        { toolCall: { name: 'python', arguments: { code: 'print("still", answer)\nanswer / 0' } } },
        { toolCall: { name: 'r', arguments: { code: 'units <- read.csv("/data/sales.csv")$units\ncat("units", sum(units), "\\n")' } } },
        { toolCall: { name: 'r', arguments: { code: 'barplot(units, main = "Units")\ncat("mean", mean(units), "\\n")' } } },
        { text: 'Everything, as asked.' },
      ],
    },
  ]);
  await openChat(page);
  await dropCsv(page, 'sales.csv', CSV);
  await send(page, `Show a bit of everything. ${trigger}`);
  // Three engines start in this turn (Python, DuckDB, R): each cell is waited for in turn.
  await waitForCells(page, 7);
  await expect(page.locator('#conversation').getByText('Everything, as asked.')).toBeVisible();
  await waitForTurn(page);
  const shareUrl = await share(page);

  {
    // One colour scheme per test (each visitor starts an interpreter): light here, dark in the next.
    const scheme = 'light';
    const { context, visitor } = await openAsVisitor(playwright, baseURL, shareUrl, scheme);
    const cells = visitor.locator('section[data-target]');
    await expect(cells).toHaveCount(7);
    // Nothing runs until asked: the page reads as the snapshot, with no interpreter and no marks.
    await expect(visitor.getByTestId('kernel-status')).toHaveCount(0);
    await expect(visitor.getByTestId('rerun-mark')).toHaveCount(0);
    await visitor.getByRole('button', { name: 'Re-run in my browser' }).click();
    const summary = visitor.getByTestId('rerun-summary');
    await expect(summary).toHaveAttribute('role', 'status');
    await expect(summary).toHaveAttribute('data-rerun-phase', 'finished', { timeout: 180_000 });
    await expect(summary).toHaveText('Re-ran 7 cells: 7 same, 0 different.');
    for (let i = 0; i < 7; i++) {
      await expect(cells.nth(i).getByTestId('rerun-mark')).toHaveAttribute('data-rerun', 'same');
      await expect(cells.nth(i).getByTestId('rerun-mark')).toContainText('Same when re-run in your browser');
    }
    // The recorded outputs stay on screen.
    await expect(cells.nth(1).getByRole('img', { name: 'Figure 1' })).toBeVisible();
    await expect(cells.nth(2).getByTestId('table-output')).toHaveAttribute('data-row-count', '3');
    await expect(cells.nth(4)).toContainText('ZeroDivisionError');
    // R's cells re-ran in the visitor's own R: its state carried from one to the next, and its plot compared as an image.
    await expect(cells.nth(6)).toHaveAttribute('data-target', 'r');
    await expect(cells.nth(6)).toContainText('mean 25');
    await expect(cells.nth(6).getByRole('img', { name: /Figure/ })).toBeVisible();
    await visitor.screenshot({ path: test.info().outputPath(`share-rerun-${scheme}.png`), fullPage: true });
    expect(await seriousViolations(visitor)).toEqual([]);
    await context.close();
  }
});

test('a re-run of output that depends on the time says different and shows the new output under the recorded one', async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  const trigger = `e2e-rerun-clock-${Date.now()}`;
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'import time\nprint("clock", time.time_ns())' } } }, { text: 'That is the time.' }] },
  ]);
  await openChat(page);
  await send(page, `What time is it? ${trigger}`);
  await expect(page.locator('#conversation').getByText('That is the time.')).toBeVisible({ timeout: 60_000 });
  await waitForTurn(page);
  const recorded = (await page.getByTestId('cell-outputs').innerText()).trim();
  expect(recorded).toMatch(/^clock \d+$/);
  const shareUrl = await share(page);

  {
    // Dark here; the test before this one is light.
    const scheme = 'dark';
    const { context, visitor } = await openAsVisitor(playwright, baseURL, shareUrl, scheme);
    await visitor.getByRole('button', { name: 'Re-run in my browser' }).click();
    const summary = visitor.getByTestId('rerun-summary');
    await expect(summary).toHaveAttribute('data-rerun-phase', 'finished', { timeout: 120_000 });
    await expect(summary).toHaveText('Re-ran 1 cell: 0 same, 1 different.');
    const mark = visitor.getByTestId('rerun-mark');
    await expect(mark).toHaveAttribute('data-rerun', 'different');
    await expect(mark).toContainText('Different when re-run in your browser');
    await expect(mark).toContainText(`expected "${recorded}"`);
    // The recorded output stays; the new one is shown under it on demand.
    await expect(visitor.getByTestId('cell-outputs')).toHaveText(recorded);
    await expect(visitor.getByTestId('rerun-output')).toHaveCount(0);
    await mark.getByRole('button', { name: 'Show new output' }).click();
    const fresh = visitor.getByTestId('rerun-output');
    await expect(fresh).toContainText(/clock \d+/);
    await expect(fresh).not.toContainText(recorded);
    await expect(mark.getByRole('button', { name: 'Hide new output' })).toHaveAttribute('aria-expanded', 'true');
    await visitor.screenshot({ path: test.info().outputPath(`share-rerun-different-${scheme}.png`), fullPage: true });
    expect(await seriousViolations(visitor)).toEqual([]);
    await context.close();
  }
});

test('a re-run shows its progress and stops when asked; the cells it did not finish say so', async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  const trigger = `e2e-rerun-halt-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: 'import time\ntime.sleep(4)\nprint("slept")' } } },
        { toolCall: { name: 'python', arguments: { code: 'print("after the nap")' } } },
        { text: 'Rested.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Take a nap. ${trigger}`);
  await expect(page.locator('#conversation').getByText('Rested.')).toBeVisible({ timeout: 60_000 });
  await waitForTurn(page);
  const shareUrl = await share(page);

  // Dark this time: the running state is the one the other tests do not show.
  const { context, visitor } = await openAsVisitor(playwright, baseURL, shareUrl, 'dark');
  await visitor.getByRole('button', { name: 'Re-run in my browser' }).click();
  const summary = visitor.getByTestId('rerun-summary');
  await expect(summary).toContainText('Re-running cell 1 of 2');
  await expect(visitor.getByTestId('kernel-status')).toBeVisible();
  await expect(visitor.getByRole('progressbar', { name: 'Re-run progress' })).toBeVisible();
  const cells = visitor.locator('section[data-target]');
  await expect(cells.nth(0).getByTestId('rerun-mark')).toHaveAttribute('data-rerun', 'running');
  await expect(cells.nth(1).getByTestId('rerun-mark')).toHaveAttribute('data-rerun', 'pending');
  await visitor.screenshot({ path: test.info().outputPath('share-rerun-running-dark.png') });
  await visitor.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(summary).toHaveAttribute('data-rerun-phase', 'stopped');
  await expect(summary).toHaveText('Stopped after re-running 0 of 2 cells.');
  for (let i = 0; i < 2; i++) {
    await expect(cells.nth(i).getByTestId('rerun-mark')).toHaveAttribute('data-rerun', 'not-run');
    await expect(cells.nth(i).getByTestId('rerun-mark')).toContainText('Not re-run: you stopped the re-run');
  }
  await expect(visitor.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Re-run in my browser' })).toBeEnabled();
  await context.close();
});
