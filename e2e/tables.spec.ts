import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, openChat, send, waitForTurn } from './helpers';

/**
 * Table outputs as a user meets them: sorting, filtering, paging through every kept row, Copy
 * (TSV on the clipboard) and Download CSV, numbers formatted for reading, and a wide table that
 * stays light in the DOM. Offline there is no pandas, so the tables come from the SQL tool
 * (DuckDB in the interpreter), which emits the same data-resource table a DataFrame does. The
 * tables are two turns of one conversation: each test's table is its own, and DuckDB starts once.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;

test.beforeAll(async ({ playwright, baseURL }) => {
  const context = await newVisitorContext(playwright, baseURL!);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await firstPage(context);
  await openChat(page);
});

test.afterAll(async () => {
  await page.context().close();
});

/** 2,000 generated rows; the table keeps the first 1,000 (OUTPUT_CAPS.tableRows). */
const LONG_QUERY = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
SELECT i AS id,
       'item ' || i AS label,
       CASE i % 4 WHEN 0 THEN 'Paris' WHEN 1 THEN 'Oslo' WHEN 2 THEN 'Lima' ELSE 'Kyiv' END AS city,
       i * 1234.5678 AS amount,
       1.0 / i AS ratio
FROM n ORDER BY i`;

const WIDE_COLUMNS = 200;
/** 1,000 rows × 200 integer columns: c000 = i, c001 = i + 1, … */
const WIDE_QUERY = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
SELECT ${Array.from({ length: WIDE_COLUMNS }, (_, c) => `i + ${c} AS c${String(c).padStart(3, '0')}`).join(', ')}
FROM n ORDER BY i`;

/** A text cell of a body row, by column position (1-based, as the header shows them). */
const cell = (row: Locator, column: number) => row.locator('td, th').nth(column - 1);
const bodyRows = (table: Locator) => table.locator('tbody tr[data-row]');
const rangeStatus = (table: Locator) => table.getByRole('status').filter({ hasText: /^Rows / });

/** Asks for a table in the conversation's next turn; returns that turn's table. */
async function runSql(trigger: string, query: string, answer: string): Promise<Locator> {
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'sql', arguments: { code: query } } }, { text: answer }] }]);
  const sqlCells = page.locator('section[data-target="sql"]');
  const before = await sqlCells.count();
  await send(page, `Make a table. ${trigger}`);
  const sqlCell = sqlCells.nth(before);
  await expect(sqlCell).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await waitForTurn(page);
  await expect(page.locator('#conversation').getByText(answer)).toBeVisible();
  return sqlCell.getByTestId('table-output');
}

test('a table sorts, filters, pages through every kept row, copies TSV and downloads CSV, with readable numbers', async () => {
  const table = await runSql(`e2e-tables-long-${Date.now()}`, LONG_QUERY, 'Here are the items.');
  const headers = table.getByRole('columnheader');
  const amount = table.getByRole('columnheader', { name: 'amount', exact: true });
  const filter = table.getByRole('searchbox', { name: 'Filter rows' });

  // The full shape, what was kept, and the first page.
  await expect(table).toContainText('2,000 rows × 5 columns');
  await expect(table).toContainText('showing the first 1,000 of 2,000 rows');
  await expect(table).toHaveAttribute('data-row-count', '1000');
  await expect(headers).toHaveCount(5);
  for (const [i, name] of ['id', 'label', 'city', 'amount', 'ratio'].entries()) await expect(headers.nth(i)).toHaveAccessibleName(name);
  await expect(bodyRows(table)).toHaveCount(50);
  await expect(rangeStatus(table)).toHaveText('Rows 1–50 of 1,000');

  // Numbers for reading: thousands separators, at most 6 decimals, small ones to 6 significant digits, right-aligned.
  const first = bodyRows(table).first();
  await expect(cell(first, 4)).toHaveText('1,234.5678');
  await expect(cell(first, 5)).toHaveText('1');
  const third = bodyRows(table).nth(2);
  await expect(cell(third, 5)).toHaveText('0.333333');
  await expect(cell(bodyRows(table).nth(9), 4)).toHaveText('12,345.678');
  await expect(cell(first, 4)).toHaveCSS('text-align', 'right');
  await expect(cell(first, 2)).toHaveCSS('text-align', 'left');

  // Sort by amount: ascending, then descending, then back to the original order.
  await expect(amount).toHaveAttribute('aria-sort', 'none');
  await amount.getByRole('button').click();
  await expect(amount).toHaveAttribute('aria-sort', 'ascending');
  await expect(cell(bodyRows(table).first(), 1)).toHaveText('1');
  await expect(cell(bodyRows(table).nth(1), 1)).toHaveText('2');
  await amount.getByRole('button').click();
  await expect(amount).toHaveAttribute('aria-sort', 'descending');
  await expect(cell(bodyRows(table).first(), 1)).toHaveText('1,000');
  await expect(cell(bodyRows(table).first(), 4)).toHaveText('1,234,567.8');
  await expect(cell(bodyRows(table).nth(1), 1)).toHaveText('999');
  await expect(table.locator('thead th[aria-sort="none"]')).toHaveCount(4);
  // Text sorts with numbers in order: "item 2" before "item 10".
  const label = table.getByRole('columnheader', { name: 'label', exact: true });
  await label.getByRole('button').click();
  await expect(label).toHaveAttribute('aria-sort', 'ascending');
  await expect(amount).toHaveAttribute('aria-sort', 'none');
  await expect(bodyRows(table).locator('td:nth-child(2)').first()).toHaveText('item 1');
  await expect(bodyRows(table).locator('td:nth-child(2)').nth(1)).toHaveText('item 2');

  // Page through every kept row, not only the ones on screen: the last page ends at row 1,000.
  await label.getByRole('button').click();
  await label.getByRole('button').click();
  await expect(label).toHaveAttribute('aria-sort', 'none');
  await table.getByLabel('Rows per page').selectOption('100');
  await expect(bodyRows(table)).toHaveCount(100);
  const next = table.getByRole('button', { name: 'Next' });
  for (let shown = 2; shown <= 10; shown += 1) {
    await next.click();
    await expect(table).toContainText(`Page ${shown} of 10`);
  }
  await expect(next).toBeDisabled();
  await expect(rangeStatus(table)).toHaveText('Rows 901–1,000 of 1,000');
  await expect(cell(bodyRows(table).last(), 1)).toHaveText('1,000');
  await expect(cell(bodyRows(table).last(), 2)).toHaveText('item 1000');
  await table.getByRole('button', { name: 'Previous' }).click();
  await expect(rangeStatus(table)).toHaveText('Rows 801–900 of 1,000');

  // Filter: every column by default, or one column with `column:value`; back to page 1.
  await filter.fill('paris');
  await expect(table).toHaveAttribute('data-row-count', '250');
  await expect(rangeStatus(table)).toHaveText('Rows 1–100 of 250 (filtered from 1,000)');
  await expect(cell(bodyRows(table).first(), 1)).toHaveText('4');
  await expect(bodyRows(table).locator('td:nth-child(3)').filter({ hasNotText: 'Paris' })).toHaveCount(0);
  await filter.fill('label:item 99');
  await expect(table).toHaveAttribute('data-row-count', '11');
  await expect(bodyRows(table)).toHaveCount(11);
  await expect(bodyRows(table).locator('td:nth-child(2)')).toHaveText(['item 99', ...Array.from({ length: 10 }, (_, i) => `item ${990 + i}`)]);
  await filter.fill('no such thing');
  await expect(table).toHaveAttribute('data-row-count', '0');
  await expect(table).toContainText('No rows match “no such thing”.');
  await filter.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(table).toHaveAttribute('data-row-count', '1000');

  // Copy and Download export every row that passes the filter, in the sorted order, raw.
  await filter.fill('city:kyiv');
  await expect(table).toHaveAttribute('data-row-count', '250');
  await amount.getByRole('button').click();
  await amount.getByRole('button').click();
  await expect(amount).toHaveAttribute('aria-sort', 'descending');
  await table.getByRole('button', { name: 'Copy' }).click();
  await expect(table.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(table.getByRole('status').filter({ hasText: 'Copied' })).toHaveText('Copied 250 rows to the clipboard.');
  const tsv = await page.evaluate(() => navigator.clipboard.readText());
  const tsvLines = tsv.trimEnd().split(/\r?\n/);
  expect(tsvLines).toHaveLength(251);
  expect(tsvLines[0]).toBe('id\tlabel\tcity\tamount\tratio');
  expect(tsvLines[1]).toBe(`999\titem 999\tKyiv\t${999 * 1234.5678}\t${1 / 999}`);
  expect(tsvLines[250]).toBe(`3\titem 3\tKyiv\t${3 * 1234.5678}\t${1 / 3}`);

  const download = page.waitForEvent('download');
  await table.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('table.csv');
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.startsWith('\uFEFFid,label,city,amount,ratio\r\n')).toBe(true);
  const csvLines = csv.replace(/^\uFEFF/, '').split('\r\n');
  expect(csvLines).toHaveLength(252); // header, 250 rows, and the empty string after the last CRLF
  expect(csvLines[1]).toBe(`999,item 999,Kyiv,${999 * 1234.5678},${1 / 999}`);
  expect(csvLines[250]).toBe(`3,item 3,Kyiv,${3 * 1234.5678},${1 / 3}`);
  expect(csvLines[251]).toBe('');
});

test('1,000 rows × 200 columns render windowed: far fewer cells in the DOM, every row reachable', async () => {
  const table = await runSql(`e2e-tables-wide-${Date.now()}`, WIDE_QUERY, 'A wide table.');
  await expect(table).toContainText('1,000 rows × 200 columns');
  await expect(table.locator('thead th')).toHaveCount(WIDE_COLUMNS);
  const cells = table.locator('tbody td, tbody th');
  const full = 1_000 * WIDE_COLUMNS;

  // Paged: one page of rows.
  await expect(bodyRows(table)).toHaveCount(50);
  expect(await cells.count()).toBeLessThan(full / 10);

  // "All (scroll)": only the rows in view (and a few more) are in the DOM, spacers stand in for the rest.
  await table.getByLabel('Rows per page').selectOption('all');
  await expect(rangeStatus(table)).toHaveText('Rows 1–1,000 of 1,000');
  await expect(table.locator('tr[data-spacer="after"]')).toHaveCount(1);
  const rendered = await bodyRows(table).count();
  expect(rendered).toBeLessThan(100);
  expect(await cells.count()).toBeLessThan(full / 10);
  const region = table.getByRole('region');
  // The scroll height is the whole table's: every row is reachable by scrolling.
  const { scrollHeight, clientHeight } = await region.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  expect(scrollHeight).toBeGreaterThan(1_000 * 28);
  expect(clientHeight).toBeLessThan(scrollHeight / 10);

  // Halfway down, then to the end: the rows there are rendered, the first ones are not.
  await region.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  await expect(table.locator('tbody tr[data-row="500"]')).toBeVisible();
  await expect(table.locator('tbody tr[data-row="0"]')).toHaveCount(0);
  await region.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const lastRow = table.locator('tbody tr[data-row="999"]');
  await expect(lastRow).toBeVisible();
  await expect(cell(lastRow, 1)).toHaveText('1,000');
  await expect(cell(lastRow, WIDE_COLUMNS)).toHaveText('1,199');
  expect(await bodyRows(table).count()).toBeLessThan(100);
  expect(await cells.count()).toBeLessThan(full / 10);
  await expect(table.locator('tr[data-spacer="before"]')).toHaveCount(1);
  // The header stays at the top of the scrolled region (sticky).
  const headerOffset = await table.locator('thead th').first().evaluate((th) => th.getBoundingClientRect().top - th.closest('[role="region"]')!.getBoundingClientRect().top);
  expect(Math.abs(headerOffset)).toBeLessThan(2);
});
