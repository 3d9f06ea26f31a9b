import { expect, test } from './test';
import { openChat, send, waitForTurn } from './helpers';

/** With no model configured, SQL over a dropped CSV and a diagram run for real, offline. */
test('the demo model queries a dropped CSV with SQL (DuckDB) and draws a diagram', async ({ page }) => {
  await openChat(page);
  const transfer = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['region,units\nnorth,12\nsouth,30\nnorth,8\nwest,50\n'], 'sales.csv', { type: 'text/csv' }));
    return data;
  });
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByRole('list', { name: 'Attached files' }).getByRole('listitem')).toHaveAttribute('data-upload-status', 'done');
  await send(page, 'Query my data with SQL');
  const sql = page.locator('section[data-target="sql"]');
  await expect(sql).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await expect(sql.getByTestId('table-output')).toHaveAttribute('data-row-count', '3');
  await expect(sql).toContainText('west');
  await expect(sql).toContainText('SQL · DuckDB');
  await expect(sql).toContainText('median_units'); // DuckDB's quantile_cont
  await waitForTurn(page);
  await expect(page.locator('#conversation')).toContainText('total_units');

  await send(page, 'Draw a diagram of how Runpad works');
  const diagram = page.locator('section[data-target="graphviz"]');
  await expect(diagram).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await expect(diagram.getByRole('img', { name: /Diagram/ })).toBeVisible();
  await waitForTurn(page);
});
