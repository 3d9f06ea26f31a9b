import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import type { RecordedRequest } from './fixtures/fake-openai/server.mjs';
import { addScenarios, chatRequestsFor, dropCsv, FAKE_MODEL, openChat, send, waitForTurn } from './helpers';

/**
 * More than Python: SQL in the conversation's interpreter (DuckDB) and Graphviz diagrams. The tests
 * are turns of one conversation in one page (one interpreter, one Graphviz): each reads its own
 * turn's cells and what the model was sent in that turn; the reload comes last.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;

test.beforeAll(async ({ playwright, baseURL }) => {
  page = await firstPage(await newVisitorContext(playwright, baseURL!));
  await openChat(page);
});

test.afterAll(async () => {
  await page.context().close();
});

/** A request's messages from the turn's question (the one holding `trigger`) on: this turn's, not the conversation's earlier ones. */
function turnMessages(request: RecordedRequest, trigger: string): string {
  const messages = request.body.messages;
  const start = messages.findLastIndex((m) => m.role === 'user' && JSON.stringify(m.content).includes(trigger));
  return JSON.stringify(messages.slice(Math.max(0, start)));
}

const CSV = 'region,units,price\nnorth,12,2.5\nsouth,30,1.25\nnorth,8,4.0\nwest,50,1.0\n';

test('a dropped CSV is a SQL table: an error names the tables and columns, the corrected query reaches the page and the model, Python reads _sql, and Copy on the answer keeps its SQL and DOT cells', async () => {
  const stamp = Date.now();
  const trigger = `e2e-sql-units-${stamp}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'sql', arguments: { code: 'SELECT regoin, SUM(units) FROM sales GROUP BY regoin' } } },
        { toolCall: { name: 'sql', arguments: { code: 'SELECT region, SUM(units) AS total FROM sales GROUP BY region ORDER BY total DESC' } } },
        { toolCall: { name: 'python', arguments: { code: 'rows = _sql.to_dict("records") if hasattr(_sql, "to_dict") else list(_sql)\nprint("top region:", rows[0]["region"], rows[0]["total"])' } } },
        { toolCall: { name: 'graphviz', arguments: { code: 'digraph { sales -> west }' } } },
        { text: 'West sold the most.' },
      ],
    },
  ]);
  await dropCsv(page, 'sales.csv', CSV);
  await send(page, `Units per region? ${trigger}`);
  await expect(page.locator('#conversation').getByText('West sold the most.')).toBeVisible();
  await waitForTurn(page);
  const cells = page.locator('section[data-target]');
  await expect(cells.nth(0)).toHaveAttribute('data-target', 'sql');
  await expect(cells.nth(0)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(0)).toContainText('Referenced column "regoin" not found');
  await cells.nth(0).getByRole('button', { name: 'Show traceback' }).click();
  await expect(cells.nth(0)).toContainText('sales(region VARCHAR, units BIGINT, price DOUBLE)');
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(1).getByTestId('table-output')).toHaveAttribute('data-row-count', '3');
  await expect(cells.nth(1)).toContainText('SQL · DuckDB');
  await expect(cells.nth(2)).toContainText('top region: west 50');
  await expect(cells.nth(3)).toHaveAttribute('data-target', 'graphviz');
  await expect(cells.nth(3)).toHaveAttribute('data-cell-status', 'ok');

  // Copy on the answer: its text and every cell, each fenced in its own language.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const answer = page.locator('div:has(> [data-role="assistant"])').last();
  await answer.getByRole('button', { name: 'Copy', exact: true }).last().click();
  await expect(answer.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('```sql\nSELECT regoin, SUM(units) FROM sales GROUP BY regoin\n```');
  expect(copied).toContain('```sql\nSELECT region, SUM(units) AS total FROM sales GROUP BY region ORDER BY total DESC\n```');
  expect(copied).toContain('```python\nrows = _sql.to_dict("records") if hasattr');
  expect(copied).toContain('```dot\ndigraph { sales -> west }\n```');
  expect(copied).toContain('West sold the most.');

  const requests = await chatRequestsFor(trigger);
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('regoin');
  expect(toolResults).toContain('not found in FROM clause');
  expect(toolResults).toContain('west');
  expect(toolResults).toContain('top region: west 50');
  // The model was told the dialect before it wrote SQL.
  expect(JSON.stringify(requests[0].body.tools)).toContain('DuckDB dialect');
});

test('a graphviz call shows a diagram as an image and sends the model a PNG; hostile DOT loads and runs nothing', async () => {
  const stamp = Date.now();
  const trigger = `e2e-dot-${stamp}`;
  const hostile = [
    'digraph G {',
    `  a [label="start", URL="${FAKE_MODEL}/__probe/dot-url", href="javascript:window.__pwned=true", image="${FAKE_MODEL}/__probe/dot-image.png"];`,
    '  b [label="<script>window.__pwned=true</script>"];',
    `  a -> b [URL="${FAKE_MODEL}/__probe/dot-edge"];`,
    '}',
  ].join('\n');
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'graphviz', arguments: { code: 'digraph G {\n  a -> b ->\n}' } } },
        { toolCall: { name: 'graphviz', arguments: { code: hostile } } },
        { text: 'Here is the diagram.' },
      ],
    },
  ]);
  await page.evaluate(() => {
    (window as unknown as { __pwned?: boolean }).__pwned = false;
  });
  const cells = page.locator('section[data-target="graphviz"]');
  const before = await cells.count();
  await send(page, `Draw it. ${trigger}`);
  await expect(page.locator('#conversation').getByText('Here is the diagram.')).toBeVisible();
  await waitForTurn(page);
  await expect(cells.nth(before)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(before)).toContainText(/syntax error in line \d/);
  await expect(cells.nth(before + 1)).toHaveAttribute('data-cell-status', 'ok');
  const image = cells.nth(before + 1).getByRole('img', { name: /Diagram/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(10);
  await image.click({ force: true });
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBe(false);

  const requests = await chatRequestsFor(trigger);
  const last = turnMessages(requests.at(-1)!, trigger);
  expect(last).toContain('syntax error in line');
  expect(last).toMatch(/data:image\/png;base64,|"image_url"/);
  const probes = (await (await fetch(`${FAKE_MODEL}/__probes`)).json()) as Array<{ path: string }>;
  expect(probes.filter((p) => p.path.includes('dot-'))).toEqual([]);
});

test('DOT that Python displays is drawn by the Graphviz target: an image on the page, a PNG for the model, and a broken one says why', async () => {
  const trigger = `e2e-pydot-${Date.now()}`;
  const code = [
    'edges = [("load", "clean"), ("clean", "model"), ("model", "report")]',
    'dot = "digraph pipeline {\\n" + "".join(f"  {a} -> {b};\\n" for a, b in edges) + "}"',
    "display({'text/vnd.graphviz': dot}, raw=True)",
    "display({'text/vnd.graphviz': 'digraph broken { a -> }'}, raw=True)",
    'print(len(edges), "edges")',
  ].join('\n');
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'The pipeline diagram is above.' }] }]);
  await send(page, `Draw the pipeline. ${trigger}`);
  await expect(page.locator('#conversation').getByText('The pipeline diagram is above.')).toBeVisible();
  await waitForTurn(page);
  const cell = page.locator('section[data-target="python"]').last();
  await expect(cell).toHaveAttribute('data-cell-status', 'ok');
  const image = cell.getByRole('img', { name: /Diagram/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(10);
  await expect(cell).toContainText('Graphviz could not draw this diagram');
  await expect(cell).toContainText('3 edges');

  const requests = await chatRequestsFor(trigger);
  const last = turnMessages(requests.at(-1)!, trigger);
  expect(last).toMatch(/data:image\/png;base64,|"image_url"/);
  expect(last).toContain('Graphviz could not draw this diagram');
  expect(last).toContain('line 1');

  // Stored as drawn: a reload shows the same image without drawing again.
  await page.reload();
  await expect(page.locator('section[data-target="python"]').last().getByRole('img', { name: /Diagram/ })).toBeVisible();
});
