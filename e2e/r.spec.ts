import { readFileSync } from 'node:fs';
import { pythonWith } from '../lib/testing/python-env';
import { expect, test, type Locator, type Page } from './test';
import { addScenarios, chatRequestsFor, dropCsv, send } from './helpers';

/** R in the browser (webR, lib/targets/r): offline, from the app's own origin. Each test starts one R. */

/** Whether the elements come in this order in the page (R's order of outputs: behaviour, not pixels). */
async function inDocumentOrder(...locators: Locator[]): Promise<boolean> {
  const handles = await Promise.all(locators.map((locator) => locator.elementHandle()));
  return locators[0].page().evaluate((elements) => elements.every((element, i) => i === 0 || Boolean(elements[i - 1]!.compareDocumentPosition(element!) & Node.DOCUMENT_POSITION_FOLLOWING)), handles);
}

/** The notebook's R cells, checked with nbformat's validator and read back by Python: each cell's R literal, its output types. */
const READ_NOTEBOOK = String.raw`
import ast, json, nbformat, sys
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
# The first code cell checks what the notebook needs (R here); the R cells follow it.
cells = [c for c in nb.cells if c.cell_type == "code" and c.get("id") != "runpad-requirements"]
print(json.dumps([{"r": ast.literal_eval(c.source.split("\n", 1)[0].split(" = ", 1)[1]), "rscript": "Rscript" in c.source, "outputs": [o.output_type for o in c.outputs]} for c in cells]))
`;

/** R needs no Python: the chat is open once the composer is (Python keeps starting beside R). */
async function openChat(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByLabel('Message', { exact: true })).toBeEditable({ timeout: 60_000 });
}

const CSV = ['month,ads,sales', ...Array.from({ length: 12 }, (_, i) => `${i + 1},${10 + i * 3},${(20 + i * 7.5 + (i % 3)).toFixed(1)}`)].join('\n') + '\n';

/** R code asking webR's worker (where R runs JavaScript) what of the origin's storage, messaging and network it reaches. */
const R_REACHES = [
  `globals <- webr::eval_js("['caches', 'indexedDB', 'BroadcastChannel', 'Worker', 'SharedWorker', 'WebSocket', 'EventSource', 'importScripts'].filter((n) => typeof globalThis[n] !== 'undefined').concat(typeof navigator !== 'undefined' && navigator.storage ? ['navigator.storage'] : []).join(' ') || 'none'")`,
  'cat("reachable:", globals, "\\n")',
  `api <- webr::eval_js("(() => { try { const x = new XMLHttpRequest(); x.open('GET', '/api/health', false); x.send(); return 'reached ' + x.status } catch (e) { return 'refused' } })()")`,
  'cat("api:", api, "\\n")',
  `replaced <- webr::eval_js("(() => { const before = XMLHttpRequest.prototype.open; try { XMLHttpRequest.prototype.open = function () {} } catch (e) {} return XMLHttpRequest.prototype.open === before ? 'no' : 'yes' })()")`,
  'cat("open replaced:", replaced, "\\n")',
].join('\n');

const PLOT_CODE = 'cat("plotting", nrow(sales), "points\\n")\nplot(sales$ads, sales$sales, main = "Sales by ads")\nabline(fit, col = "red")\ncat("drawn\\n")\nhead(sales, 4)';

test('R reads a dropped CSV: summary(lm()) reaches the model, a base plot is an image and a PNG between what was printed around it, a data frame is a table, an error then its fix; it exports as a notebook and an .R script', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const trigger = `e2e-r-lm-${Date.now()}`;
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'r', arguments: { code: 'sales <- read.csv("/data/sales.csv")\nfit <- lm(sales ~ ads, data = sales)\nsummary(fit)' } } },
        { toolCall: { name: 'r', arguments: { code: PLOT_CODE } } },
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
  // A base plot as an image, placed where R drew it (after the text printed before, before the
  // text printed after), and head() as a table with R's columns.
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'ok');
  const figure = cells.nth(1).getByRole('img', { name: /Figure/ });
  await expect(figure).toBeVisible();
  expect(await figure.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  const table = cells.nth(1).getByTestId('table-output');
  await expect(table).toHaveAttribute('data-row-count', '4');
  await expect(table).toContainText('ads');
  const outputs = cells.nth(1).getByTestId('cell-outputs');
  expect(await inDocumentOrder(outputs.getByText('plotting 12 points'), figure, outputs.getByText('drawn', { exact: true }), table)).toBe(true);
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

  // Exported: the notebook's R cells are Python handing the exact R source to Rscript (the form
  // ARCHITECTURE.md documents), with R's outputs kept in R's order; R only, so the script is .R.
  const id = page.url().split('/c/')[1];
  await expect
    .poll(async () => JSON.stringify(await (await page.request.get(`/api/conversations/${id}/notebook`)).json()).includes('Sales rise with ads.'))
    .toBe(true);
  const notebookPath = testInfo.outputPath('r.ipynb');
  const menu = page.locator('header').first().getByRole('button', { name: 'Download this conversation' });
  await menu.click();
  const notebookDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Notebook (.ipynb)', exact: true }).click();
  await (await notebookDownload).saveAs(notebookPath);
  const notebookCells = JSON.parse(pythonWith(['python3-nbformat'], ['-c', READ_NOTEBOOK, notebookPath])) as Array<{ r: string; rscript: boolean; outputs: string[] }>;
  expect(notebookCells).toHaveLength(4);
  expect(notebookCells[1]).toEqual({ r: PLOT_CODE, rscript: true, outputs: ['stream', 'display_data', 'stream', 'execute_result'] });
  expect(notebookCells[2].outputs).toContain('error');
  await menu.click();
  const scriptDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'R script (.R)', exact: true }).click();
  const script = await scriptDownload;
  expect(script.suggestedFilename()).toMatch(/^[A-Za-z0-9_-]+\.R$/);
  const scriptText = readFileSync((await script.path())!, 'utf8');
  expect(scriptText).toContain(`# %%\n${PLOT_CODE}\n`);
  expect(scriptText).not.toContain('_runpad_r');
});

test('R keeps state between runs; repeat {} is stopped by the time limit with the page responsive; library(ggplot2) fails in words offline, and the page and the model are told R packages cannot be downloaded', async ({ page }) => {
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
        { toolCall: { name: 'r', arguments: { code: R_REACHES } } },
        { text: 'Done looping.' },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Set a counter in R. ${first}`);
  await expect(page.locator('#conversation').getByText('Counter set.')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('section[data-target="r"]').first()).toContainText('[1] 41');
  // R asked its package repository as it started (never at page load): offline, the page says so.
  const notice = page.getByTestId('package-source-notice');
  await expect(notice).toContainText('Extra R packages (ggplot2, dplyr…) can’t be downloaded right now: repo.r-wasm.org isn’t answering. R code still runs with base R');
  await expect(notice).not.toContainText('Python');
  // The model learnt it at its next step: before R started its prompt promised nothing either way.
  const firstTurn = await chatRequestsFor(first);
  const rLine = (request: (typeof firstTurn)[number]) => String(request.body.messages.find((m) => m.role === 'system')?.content ?? '').split('\n').find((line) => line.startsWith('- `r` ')) ?? '';
  expect(rLine(firstTurn[0])).toContain('when it answers');
  expect(rLine(firstTurn.at(-1)!)).toContain('The R package repository does not answer');

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

  // R runs JavaScript in webR's worker (webr::eval_js): there it finds no storage (the Python
  // snapshot's Cache Storage, the datasets' IndexedDB, the origin's file system), no messaging, no
  // workers and no sockets, and its network reaches webR's files and the repository only.
  await expect(cells.nth(4)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(4)).toContainText('reachable: none');
  await expect(cells.nth(4)).toContainText('api: refused');
  await expect(cells.nth(4)).toContainText('open replaced: no');

  const requests = await chatRequestsFor(second);
  const toolResults = JSON.stringify(requests.at(-1)!.body.messages.filter((m) => m.role === 'tool'));
  expect(toolResults).toContain('Use base R');
  expect(toolResults).toContain('time limit');
});
