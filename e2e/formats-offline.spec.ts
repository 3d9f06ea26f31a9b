import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from './test';
import { addScenarios, chatRequestsFor, FAKE_MODEL, send, waitForTurn } from './helpers';

// Boots an interpreter and DuckDB (34 MB of wasm) on a loaded 2-core machine: generous limits,
// every wait for a state.
test.describe.configure({ timeout: 300_000 });

/**
 * Parquet, JSON and Excel with no DuckDB extension reachable (the configured source here lacks
 * them, as an offline install's would): the kept JavaScript readers make each dropped file a table,
 * SQL reads it by the forms the model writes (the path, read_parquet, read_json_auto, read_xlsx,
 * the table's name), Python's sql() sees the same numbers, and the model's preview of the Parquet
 * and Excel files names their columns with DuckDB's types.
 */

type DroppedFile = { name: string; bytes: number[]; type: string };

async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
    return data;
  }, files);
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  const items = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  for (const file of files) await expect(items.filter({ hasText: file.name })).toHaveAttribute('data-upload-status', 'done', { timeout: 120_000 });
}

/** 3,000 sales over three row groups: amounts 0.5 … 1500, a date per day of January, every 7th region missing. */
async function salesParquet(): Promise<number[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'runpad-e2e-formats-'));
  try {
    const file = path.join(dir, 'sales.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const native = await instance.connect();
    await native.run(
      `COPY (SELECT i AS id, i * 0.5 AS amount, DATE '2024-01-01' + (i % 31)::INT AS day, CASE WHEN i % 7 = 0 THEN NULL ELSE ['north', 'south', 'west'][1 + i % 3] END AS region
             FROM range(1, 3001) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`,
    );
    native.closeSync();
    instance.closeSync();
    return [...readFileSync(file)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function budgetXlsx(): Promise<number[]> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Budget');
  sheet.addRow(['item', 'cost', 'due']);
  sheet.addRow(['rent', 1200.5, new Date(Date.UTC(2024, 0, 31))]);
  sheet.addRow(['food', 310.25, new Date(Date.UTC(2024, 1, 29))]);
  sheet.addRow(['misc', null, null]);
  return [...new Uint8Array(await workbook.xlsx.writeBuffer())];
}

const PEOPLE = JSON.stringify([
  { name: 'Ada', age: 36, joined: '2024-03-01' },
  { name: 'Bo', age: 41, joined: null },
  { name: 'Cy', age: 29, joined: '2023-11-15' },
]);

const PYTHON_CHECK = [
  `t = sql("select count(*) as n, sum(amount) as total, count(region) as with_region from '/data/sales.parquet'")`,
  'print("parquet", t.rows[0])',
  'print("json", sql("select name, age from people order by age desc limit 1").rows[0])',
  `print("xlsx", sql("select round(sum(cost), 2) from read_xlsx('/data/budget.xlsx')").rows[0][0])`,
].join('\n');

test('Parquet, JSON and Excel files are tables for SQL and Python with no DuckDB extension reachable', async ({ page }) => {
  const trigger = `e2e-formats-offline-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'sql', arguments: { code: "SELECT count(*) AS n, sum(amount) AS total, max(day) AS last_day, count(region) AS with_region FROM '/data/sales.parquet'" } } },
        { toolCall: { name: 'sql', arguments: { code: "SELECT region, count(*) AS n FROM read_parquet('/data/sales.parquet') WHERE region IS NOT NULL GROUP BY region ORDER BY region" } } },
        { toolCall: { name: 'sql', arguments: { code: "SELECT sum(age) AS ages, min(joined) AS first_joined FROM read_json_auto('/data/people.json')" } } },
        { toolCall: { name: 'sql', arguments: { code: "SELECT item, cost, due FROM read_xlsx('/data/budget.xlsx') ORDER BY item" } } },
        { toolCall: { name: 'python', arguments: { code: PYTHON_CHECK } } },
        { text: 'All read.' },
      ],
    },
  ]);
  const [parquet, xlsx] = await Promise.all([salesParquet(), budgetXlsx()]);
  await page.goto('/');
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 180_000 });
  await dropFiles(page, [
    { name: 'sales.parquet', bytes: parquet, type: 'application/vnd.apache.parquet' },
    { name: 'people.json', bytes: [...new TextEncoder().encode(PEOPLE)], type: 'application/json' },
    { name: 'budget.xlsx', bytes: xlsx, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  ]);
  await send(page, `Read every file ${trigger}`);
  await expect(page.locator('#conversation').getByText('All read.')).toBeVisible({ timeout: 240_000 });
  await waitForTurn(page);

  const cells = page.locator('section[data-target]');
  await expect(cells).toHaveCount(5);
  for (let i = 0; i < 5; i += 1) await expect(cells.nth(i)).toHaveAttribute('data-cell-status', 'ok');
  // 3,000 rows; amounts sum to 0.5 × 3000 × 3001 / 2; 428 of them (multiples of 7) have no region.
  // (The table shows numbers with thousands separators.)
  const row = (cell: number, name: string) => cells.nth(cell).getByTestId('table-output').getByRole('row', { name, exact: true });
  await expect(row(0, '3,000 2,250,750 2024-01-31 2,572')).toBeVisible();
  await expect(row(1, 'north 858')).toBeVisible();
  await expect(row(2, '106 2023-11-15')).toBeVisible();
  await expect(row(3, 'rent 1,200.5 2024-01-31')).toBeVisible();
  await expect(row(3, 'food 310.25 2024-02-29')).toBeVisible();
  await expect(cells.nth(4)).toContainText('parquet (3000, 2250750.0, 2572)');
  await expect(cells.nth(4)).toContainText("json ('Bo', 41)");
  await expect(cells.nth(4)).toContainText('xlsx 1510.75');
  // No notice that a format is unavailable.
  await expect(cells.nth(0)).not.toContainText('could not');

  // DuckDB's own extension was asked for first (from the configured source, which lacks it).
  const mirror = (await (await fetch(`${FAKE_MODEL}/__mirror-requests`)).json()) as { path: string }[];
  expect(mirror.some((r) => r.path.endsWith('parquet.duckdb_extension.wasm'))).toBe(true);

  // The model was told each file's columns, with DuckDB's types for Parquet and Excel.
  const first = JSON.stringify((await chatRequestsFor(trigger))[0].body.messages);
  expect(first).toContain('/data/sales.parquet');
  expect(first).toContain('PARQUET, 3,000 rows');
  expect(first).toContain('amount (DOUBLE), day (DATE), region (VARCHAR)');
  expect(first).toContain('XLSX, 3 rows');
  expect(first).toContain('cost (DOUBLE), due (DATE)');
});
