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

/**
 * The analyst's first question, with no key: revenue by month over an orders file with a date
 * column (one blank, one with a time), an id column, blanks and quoted fields. The demo answers
 * that question (never the ids summed by category), then charts it with Vega-Lite, no package.
 */
test('the demo model answers revenue by month over a dropped orders CSV, then charts it', async ({ page }) => {
  await openChat(page);
  const orders = [
    'order_id,order_date,customer,category,quantity,revenue',
    '1001,2024-01-05,"Smith, Jane",Books,2,20.00',
    '1002,2024-01-20,Bob,Toys,1,35.50',
    '1003,2024-02-02,"O\'Neil ""Bo""",Books,3,36.00',
    '1004,2024-02-28 14:30:00,Ann,Garden,,',
    '1005,,Cy,Toys,4,20.00',
    '1006,2024-03-01,Dee,Garden,2,80.00',
    '1007,2024-03-15,Eve,Books,1,9.99',
    '1008,2024-03-31,"Fay, Jr.",Toys,5,30.00',
  ].join('\n');
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'orders.csv', { type: 'text/csv' }));
    return data;
  }, orders);
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByRole('list', { name: 'Attached files' }).getByRole('listitem')).toHaveAttribute('data-upload-status', 'done');
  await send(page, 'Give me total revenue by month using SQL');
  const sql = page.locator('section[data-target="sql"]');
  await expect(sql).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  const table = sql.getByTestId('table-output');
  await expect(table).toHaveAttribute('data-row-count', '3');
  await expect(table.getByRole('columnheader', { name: /total_revenue/ })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: '2024-01' })).toContainText('55.5');
  await expect(table.getByRole('row').filter({ hasText: '2024-02' })).toContainText('36');
  await expect(table.getByRole('row').filter({ hasText: '2024-03' })).toContainText('119.99');
  await expect(sql).not.toContainText('total_order_id');
  await waitForTurn(page);

  await send(page, 'Now make a chart of it');
  const chartCell = page.locator('section[data-target="python"]').last();
  await expect(chartCell).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  const chart = chartCell.locator('[data-output="vegalite"]');
  await expect(chart).toHaveAttribute('data-chart-state', 'rendered');
  await expect(chartCell).toContainText('charted 3 rows: total_revenue by month');
  await waitForTurn(page);
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText('It drew an interactive chart, shown above.');
  await expect(answer).not.toContainText('[image');
});
