import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { expect, test } from './test';
import { fakeExtension } from '../scripts/mirror/test-support';
import { addScenarios, chatRequestsFor, dropFiles, FAKE_MODEL, send, waitForTurn } from './helpers';

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

/** 3,000 sales over three row groups: amounts 0.5 … 1500, a date per day of January, every 7th region missing. */
async function salesParquet(): Promise<Uint8Array> {
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
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function budgetXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Budget');
  sheet.addRow(['item', 'cost', 'due']);
  sheet.addRow(['rent', 1200.5, new Date(Date.UTC(2024, 0, 31))]);
  sheet.addRow(['food', 310.25, new Date(Date.UTC(2024, 1, 29))]);
  sheet.addRow(['misc', null, null]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
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
    { name: 'people.json', bytes: new TextEncoder().encode(PEOPLE), type: 'application/json' },
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
  expect(first).toContain('amount (DECIMAL(21,1)), day (DATE), region (VARCHAR)'); // as native DuckDB types i * 0.5
  expect(first).toContain('XLSX, 3 rows');
  expect(first).toContain('cost (DOUBLE), due (DATE)');
});

/**
 * Files no one here wrote, as the analyst dropped them: vega-datasets' cars.json and
 * flights-200k.arrow, Parquet from native DuckDB (gzip and zstd, a LIST and a STRUCT column), an
 * .xlsx from exceljs. Read by table name, by path, with read_parquet(), read_json_auto() and
 * read_xlsx(), and from Python's sql(); every answer equals native DuckDB's on the same file. Twice:
 * with DuckDB's extension repository unreachable (offline: the request fails), and with it
 * answering a file that is WebAssembly but not a loadable extension (the extension path taken, the
 * load failing inside the engine): the engine answers on, and the answers are the same.
 */
const vegaData = path.join(path.dirname(createRequire(import.meta.url).resolve('vega-datasets')), '..', 'data');

async function nativeRow(sql: string): Promise<unknown[]> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const connection = await instance.connect();
    const [row] = (await connection.runAndReadAll(sql)).getRowsJS();
    connection.closeSync();
    return row.map((value) => (typeof value === 'bigint' ? Number(value) : value));
  } finally {
    instance.closeSync();
  }
}

async function nativeParquet(dir: string, name: string, codec: string): Promise<Uint8Array> {
  const file = path.join(dir, name);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT i::INTEGER AS id, (i * 0.25)::DECIMAL(10,2) AS price, TIMESTAMPTZ '2024-03-31 00:00:00+00' + to_minutes(i) AS seen,
                  [i, i % 5] AS pair, {'code': i % 13, 'name': 'n' || (i % 3)} AS info
           FROM range(1, 2501) t(i)) TO '${file}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 600)`,
  );
  connection.closeSync();
  instance.closeSync();
  return new Uint8Array(readFileSync(file));
}

const number = (value: unknown) => new Intl.NumberFormat('en-US').format(Number(value));

for (const source of ['unreachable', 'answering with an extension that does not load'] as const) {
  test(`files from other writers are tables with native DuckDB's answers, the extension repository ${source}`, async ({ page }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runpad-e2e-corpus-'));
    try {
      await page.context().route('**/*.duckdb_extension.wasm', async (route) => {
        if (source === 'unreachable') return route.abort('internetdisconnected');
        const name = /([a-z_]+)\.duckdb_extension\.wasm$/.exec(route.request().url())?.[1] ?? 'x';
        return route.fulfill({ status: 200, contentType: 'application/wasm', headers: { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' }, body: fakeExtension(name) });
      });
      const trigger = `e2e-formats-corpus-${source.split(' ')[0]}-${Date.now()}`;
      const queries = [
        'SELECT count(*) AS n, sum(price)::BIGINT AS total, sum(pair[2]) AS pairs, sum(info.code) AS codes FROM penguins_gzip',
        "SELECT count(*) AS n, sum(id) AS ids, epoch(max(seen))::BIGINT AS latest FROM read_parquet('/data/penguins_zstd.parquet')",
        "SELECT count(*) AS n, round(sum(Horsepower))::BIGINT AS hp, count(Miles_per_Gallon) AS with_mpg FROM read_json_auto('/data/cars.json')",
        "SELECT count(*) AS n, round(sum(cost) * 100)::BIGINT AS cents FROM read_xlsx('/data/weather_exceljs.xlsx')",
        'SELECT count(*) AS n, sum(delay)::BIGINT AS delays, sum(distance)::BIGINT AS miles FROM flights_200k',
      ];
      const python = [
        `print("arrow", sql("select count(*), sum(distance)::BIGINT from flights_200k").rows[0])`,
        `print("parquet", sql("select count(*), sum(id)::BIGINT from '/data/penguins_gzip.parquet'").rows[0])`,
      ].join('\n');
      await addScenarios([{ trigger, steps: [...queries.map((code) => ({ toolCall: { name: 'sql', arguments: { code } } })), { toolCall: { name: 'python', arguments: { code: python } } }, { text: 'All read.' }] }]);

      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Weather');
      sheet.addRow(['day', 'cost', 'note']);
      for (let i = 1; i <= 20; i += 1) sheet.addRow([new Date(Date.UTC(2024, 0, i)), i % 6 === 0 ? null : i * 1.25, `it's "${i}"`]);
      workbook.addWorksheet('Empty');
      const files = [
        { name: 'penguins_gzip.parquet', bytes: await nativeParquet(dir, 'penguins_gzip.parquet', 'gzip'), type: 'application/vnd.apache.parquet' },
        { name: 'penguins_zstd.parquet', bytes: await nativeParquet(dir, 'penguins_zstd.parquet', 'zstd'), type: 'application/vnd.apache.parquet' },
        { name: 'cars.json', bytes: new Uint8Array(readFileSync(path.join(vegaData, 'cars.json'))), type: 'application/json' },
        { name: 'weather_exceljs.xlsx', bytes: new Uint8Array(await workbook.xlsx.writeBuffer()), type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        { name: 'flights_200k.arrow', bytes: new Uint8Array(readFileSync(path.join(vegaData, 'flights-200k.arrow'))), type: 'application/vnd.apache.arrow.file' },
      ];
      // The reference: native DuckDB on the same files (the Arrow file's twin: vega-datasets' flights-200k.json).
      const gz = path.join(dir, 'penguins_gzip.parquet');
      const expected = [
        await nativeRow(queries[0].replace('penguins_gzip', `read_parquet('${gz}')`)),
        await nativeRow(queries[1].replace('/data/penguins_zstd.parquet', path.join(dir, 'penguins_zstd.parquet'))),
        await nativeRow(queries[2].replace('/data/cars.json', path.join(vegaData, 'cars.json'))),
        [20, Math.round((20 * 21 / 2 - 6 - 12 - 18) * 125)],
        await nativeRow(queries[4].replace('flights_200k', `read_json_auto('${path.join(vegaData, 'flights-200k.json')}')`)),
      ];

      await page.goto('/');
      await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 180_000 });
      await dropFiles(page, files);
      await send(page, `Read every file ${trigger}`);
      await expect(page.locator('#conversation').getByText('All read.')).toBeVisible({ timeout: 240_000 });
      await waitForTurn(page);
      const cells = page.locator('section[data-target]');
      await expect(cells).toHaveCount(6);
      for (let i = 0; i < 6; i += 1) await expect(cells.nth(i)).toHaveAttribute('data-cell-status', 'ok');
      // Each answer is native DuckDB's (the table shows numbers with thousands separators).
      for (const [i, row] of expected.entries()) {
        await expect(cells.nth(i).getByTestId('table-output').getByRole('row', { name: row.map(number).join(' '), exact: true }), queries[i]).toBeVisible();
      }
      await expect(cells.nth(5)).toContainText(`arrow (${expected[4][0]}, ${expected[4][2]})`);
      await expect(cells.nth(5)).toContainText(`parquet (2500, 3126250)`);
      for (let i = 0; i < 6; i += 1) await expect(cells.nth(i)).not.toContainText('could not');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
