import { writeFileSync } from 'node:fs';
import { pythonWith } from '../lib/testing/python-env';
import { expect, test, type Page } from './test';
import { addScenarios, cellDurationMs, chatRequestsFor, FAKE_MODEL, send, waitForCells, waitForTurn } from './helpers';

// Each test boots an interpreter and DuckDB (34 MB of wasm) and waits on real work: generous limits
// for a loaded 2-core machine; every wait is for a state, never a sleep.
test.describe.configure({ timeout: 300_000 });

async function openChat(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 180_000 });
}

/**
 * SQL is DuckDB (ARCHITECTURE.md, "SQL is DuckDB"): dropped files are tables read by DuckDB, SQL
 * and Python share them, errors name the tables, Stop ends a long query, and a damaged Parquet file
 * read without its extension (here: the configured mirror does not have it) is named in words.
 */

const ORDERS = [
  'order_id,customer_id,ordered_at,amount',
  '1,1,2024-01-05,10.0',
  '2,1,2024-01-20,30.0',
  '3,2,2024-01-11,20.0',
  '4,2,2024-02-02,50.0',
  '5,3,2024-02-14,40.0',
  '6,1,2024-02-25,60.0',
].join('\n');
const CUSTOMERS = ['customer_id,name,region', '1,Ada,north', '2,Bo,south', '3,Cy,north'].join('\n');

type DroppedFile = { name: string; text?: string; bytes?: number[]; type: string };

/** Drops files onto the conversation as a user drags them in, and waits until each is uploaded. */
async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([file.text ?? new Uint8Array(file.bytes ?? [])], file.name, { type: file.type }));
    return data;
  }, files);
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  const items = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  for (const file of files) await expect(items.filter({ hasText: file.name })).toHaveAttribute('data-upload-status', 'done', { timeout: 120_000 });
}

/**
 * Reads an exported notebook with nbformat (validating it) and prints, as JSON, each code cell's
 * call: the argument of a `_runpad_sql(...)` cell read back as the exact string, whether a cell
 * defines `_runpad_sql`, and the output types each cell kept.
 */
const READ_SQL_CELLS = String.raw`
import ast, json, nbformat, sys
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
cells = []
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    tree = ast.parse(cell.source)
    call = tree.body[-1].value if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    sql = ast.literal_eval(call.args[0]) if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "_runpad_sql" else None
    defines = any(isinstance(node, ast.FunctionDef) and node.name == "_runpad_sql" for node in tree.body)
    cells.append({"sql": sql, "defines": defines, "outputs": [o.output_type for o in cell.outputs]})
print(json.dumps(cells))
`;

const MONTHLY_SQL = [
  'SELECT c.region, date_trunc(\'month\', o.ordered_at) AS month, sum(o.amount) AS total,',
  '  quantile_cont(o.amount, 0.5) AS median_amount,',
  '  sum(sum(o.amount)) OVER (PARTITION BY c.region ORDER BY date_trunc(\'month\', o.ordered_at)) AS running_total',
  'FROM orders o JOIN customers c USING (customer_id)',
  'GROUP BY 1, 2 ORDER BY c.region, month',
].join('\n');

test('two CSVs joined in DuckDB: window function, date_trunc, quantile_cont; an error names the tables, the fix runs; Python sql() and _sql agree', async ({ page }) => {
  const trigger = `e2e-duckdb-join-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'sql', arguments: { code: 'SELECT regoin, sum(amount) FROM orders JOIN customers USING (customer_id) GROUP BY regoin' } } },
        { toolCall: { name: 'sql', arguments: { code: MONTHLY_SQL } } },
        {
          toolCall: {
            name: 'python',
            arguments: {
              code: [
                'again = sql("SELECT region, sum(amount) AS total FROM orders JOIN customers USING (customer_id) GROUP BY region ORDER BY region")',
                'print("columns:", list(again.columns))',
                'print("sql():", [tuple(r.values()) for r in again])',
                'last = list(_sql)',
                'print("_sql rows:", len(last), "north running:", last[1]["running_total"], "median:", last[0]["median_amount"])',
                'print("agree:", sum(r["total"] for r in last) == sum(r["total"] for r in again))',
                'sql_table("targets", [{"region": "north", "target": 100}, {"region": "south", "target": 60}])',
                'print("vs target:", [(r["region"], int(r["target"])) for r in sql("SELECT region, target FROM targets ORDER BY region")])',
              ].join('\n'),
            },
          },
        },
        { text: 'North leads.' },
      ],
    },
  ]);
  await openChat(page);
  await dropFiles(page, [
    { name: 'orders.csv', text: ORDERS, type: 'text/csv' },
    { name: 'customers.csv', text: CUSTOMERS, type: 'text/csv' },
  ]);
  await send(page, `Monthly totals per region? ${trigger}`);
  await expect(page.locator('#conversation').getByText('North leads.')).toBeVisible({ timeout: 120_000 });
  await waitForTurn(page);

  const cells = page.locator('section[data-target]');
  // The error names the mistake, then the tables with their columns as DuckDB typed them.
  await expect(cells.nth(0)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(0)).toContainText('regoin');
  await cells.nth(0).getByRole('button', { name: 'Show traceback' }).click();
  await expect(cells.nth(0)).toContainText('customers(customer_id BIGINT, name VARCHAR, region VARCHAR)');
  await expect(cells.nth(0)).toContainText('orders(order_id BIGINT, customer_id BIGINT, ordered_at DATE, amount DOUBLE)');
  // The fix: 4 rows (north Jan/Feb, south Jan/Feb), with the window's running total.
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(1)).toContainText('SQL · DuckDB');
  await expect(cells.nth(1).getByTestId('table-output')).toHaveAttribute('data-row-count', '4');
  await expect(cells.nth(1)).toContainText('140'); // north running total by February: 40 + 100
  // Python sees the same database and the same result.
  await expect(cells.nth(2)).toContainText("columns: ['region', 'total']");
  await expect(cells.nth(2)).toContainText("sql(): [('north', 140.0), ('south', 70.0)]");
  await expect(cells.nth(2)).toContainText('_sql rows: 4 north running: 140.0 median: 20.0');
  await expect(cells.nth(2)).toContainText('agree: True');
  await expect(cells.nth(2)).toContainText("vs target: [('north', 100), ('south', 60)]");

  const requests = await chatRequestsFor(trigger);
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('regoin');
  expect(toolResults).toContain('orders(order_id BIGINT');
  expect(toolResults).toContain('140');
  expect(toolResults).toContain('agree: True');
  // The model was told the dialect before it wrote SQL.
  expect(JSON.stringify(requests[0].body.tools)).toContain('DuckDB dialect');

  // Exported, the SQL cells are DuckDB calls with their exact text and their outputs, after a setup
  // cell that defines the helper (lib/notebook/to-ipynb.test.ts runs it over ./data in CPython).
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  const notebookUrl = `/api/conversations/${page.url().split('/c/')[1]}/notebook`;
  const notebookPath = test.info().outputPath('duckdb.ipynb');
  // The answer is stored when the turn ends: wait until the export holds it.
  await expect.poll(async () => (await (await page.request.get(notebookUrl)).text()).includes('North leads.')).toBe(true);
  writeFileSync(notebookPath, await (await page.request.get(notebookUrl)).body());
  const exported = JSON.parse(pythonWith(['python3-nbformat'], ['-c', READ_SQL_CELLS, notebookPath])) as Array<{ sql: string | null; defines: boolean; outputs: string[] }>;
  const setup = exported.findIndex((cell) => cell.defines);
  const sqlCells = exported.filter((cell) => cell.sql !== null);
  expect(setup).toBeGreaterThanOrEqual(0);
  expect(exported.findIndex((cell) => cell.sql !== null)).toBeGreaterThan(setup);
  expect(sqlCells.map((cell) => cell.sql)).toEqual(['SELECT regoin, sum(amount) FROM orders JOIN customers USING (customer_id) GROUP BY regoin', MONTHLY_SQL]);
  expect(sqlCells[0].outputs).toContain('error');
  expect(sqlCells[1].outputs.length).toBeGreaterThan(0);
  expect(sqlCells[1].outputs).not.toContain('error');
});

test('a damaged Parquet file is named as such when its extension cannot load; Stop ends a long DuckDB query with the page responsive; Python and SQL state survive', async ({ page }) => {
  const trigger = `e2e-duckdb-stop-${Date.now()}`;
  const after = `e2e-duckdb-after-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: 'kept = 41\nprint("set kept")' } } },
        { toolCall: { name: 'sql', arguments: { code: 'CREATE TABLE kept_table AS SELECT 7 AS x' } } },
        { toolCall: { name: 'sql', arguments: { code: 'SELECT count(*) FROM range(10000000) a, range(10000000) b' } } },
        { text: 'Too slow.' },
      ],
    },
    {
      trigger: after,
      steps: [
        { toolCall: { name: 'sql', arguments: { code: 'SELECT x + 35 AS answer FROM kept_table' } } },
        { toolCall: { name: 'python', arguments: { code: 'print("kept is", kept + 1)' } } },
        { text: 'Done.' },
      ],
    },
  ]);
  await openChat(page);
  // A dropped dataset starts DuckDB in the background (prefetch), before any SQL is written.
  await dropFiles(page, [{ name: 'sales_2024.parquet', bytes: [0x50, 0x41, 0x52, 0x31, 0, 0, 0, 0, 0x50, 0x41, 0x52, 0x31], type: 'application/octet-stream' }]);
  await send(page, `Count a huge cross join ${trigger}`);
  const cells = page.locator('section[data-target]');
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok', { timeout: 120_000 });
  // The Parquet file: the configured extension source (a stand-in that lacks it) was asked, then
  // the kept reader, and the user and the model are told the file is damaged, by its name.
  await expect(cells.nth(1)).toContainText('sales_2024.parquet could not be read as a Parquet file: it looks damaged');
  const mirror = (await (await fetch(`${FAKE_MODEL}/__mirror-requests`)).json()) as { path: string }[];
  expect(mirror.some((r) => r.path.includes('/duckdb-extensions/') && r.path.endsWith('parquet.duckdb_extension.wasm'))).toBe(true);

  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'running', { timeout: 120_000 });
  // The page answers while DuckDB works (it runs in the worker, not on the page's thread).
  expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1))))).toBe(1);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'interrupted');
  await waitForTurn(page);
  const requests = await chatRequestsFor(trigger);
  expect(JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'))).toContain('sales_2024.parquet could not be read as a Parquet file');

  // State survived the Stop: DuckDB's table and Python's variable.
  await send(page, `And now? ${after}`);
  await expect(page.locator('#conversation').getByText('Done.')).toBeVisible({ timeout: 120_000 });
  await waitForTurn(page);
  await expect(cells.nth(3)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(3)).toContainText('42');
  await expect(cells.nth(4)).toContainText('kept is 42');
});

test("the time limit counts a SQL run, not DuckDB's start: a first query whose engine loads for longer than the limit runs, and Python keeps its state", async ({ page }) => {
  const steps = [
    { toolCall: { name: 'python', arguments: { code: 'kept = 41\nprint("set kept")' } } },
    // No dataset was dropped: DuckDB starts with this query.
    { toolCall: { name: 'sql', arguments: { code: 'SELECT 6 * 7 AS answer' } } },
    { toolCall: { name: 'python', arguments: { code: 'print("kept is", kept + 1)' } } },
    { text: 'Counted.' },
  ];
  const measuring = `e2e-duckdb-start-measure-${Date.now()}`;
  const trigger = `e2e-duckdb-start-limit-${Date.now()}`;
  await addScenarios([
    { trigger: measuring, steps },
    { trigger, steps },
  ]);
  // The limit is the thing under test, so it comes from this machine: the same three runs, DuckDB
  // starting as it does here, under the default limit; each cell says how long its run took.
  await openChat(page);
  await send(page, `Count it ${measuring}`);
  await waitForCells(page, 3);
  const measured = page.locator('section[data-target]');
  await expect(measured.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  const longestRunMs = Math.max(...(await Promise.all([0, 1, 2].map((index) => cellDurationMs(measured.nth(index))))));
  const context = page.context();
  await page.close();
  // Four times the longest run here (at least 5 s): the runs fit in it with room. DuckDB's wasm is
  // then held back for twice that limit: its start alone outlasts the limit, on this machine.
  const limitMs = Math.max(5_000, 4 * longestRunMs);
  test.info().annotations.push({ type: 'time limit', description: `${limitMs} ms (longest run here ${longestRunMs} ms); DuckDB held ${2 * limitMs} ms` });
  const visitor = await context.newPage();
  await visitor.addInitScript((timeoutMs) => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs })), limitMs);
  await context.route(/\/duckdb\/.*\.wasm$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2 * limitMs));
    await route.continue();
  });
  await openChat(visitor);
  await send(visitor, `Count it ${trigger}`);
  const cells = visitor.locator('section[data-target]');
  // The cell says what it waits for while the engine loads.
  await expect(cells.nth(1)).toContainText('Starting DuckDB');
  await waitForCells(visitor, 3);
  await expect(visitor.locator('#conversation').getByText('Counted.')).toBeVisible();
  await waitForTurn(visitor);
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(1).getByTestId('table-output')).toContainText('42');
  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(2)).toContainText('kept is 42');
});
