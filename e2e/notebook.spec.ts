import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { pythonWith, stdlibPython } from '../lib/testing/python-env';
import { expect, request as playwrightRequest, test, type APIResponse, type Locator, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, openChat, PNG_CHART_CODE, send, waitForTurn } from './helpers';

/**
 * Download as a notebook / script: from the conversation header (owner) and from a share link
 * (anyone holding it), checked with nbformat's own validator, run again in CPython, and refused
 * (404) to strangers, for revoked links and for malformed ids.
 *
 * No table output here: offline there is no pandas, and the worker's display() passes on only
 * PNG/JPEG/text/markdown of other objects (lib/targets/python/engine/runpad/formatters.py), so a data
 * resource table cannot be produced with the standard library. The unit tests of the exporter
 * cover tables (lib/notebook/to-ipynb.test.ts).
 */

const VALIDATE = "import nbformat,sys; nb=nbformat.read(sys.argv[1], as_version=4); nbformat.validate(nb); print('valid')";
/** Runs every code cell top to bottom in one namespace; reports what each printed and raised. */
const EXECUTE = String.raw`
import contextlib, io, json, sys
with open(sys.argv[1], encoding="utf-8") as file:
    nb = json.load(file)
namespace = {"__name__": "__main__", "display": print}
results = []
for cell in nb["cells"]:
    if cell["cell_type"] != "code":
        continue
    out = io.StringIO()
    raised = None
    with contextlib.redirect_stdout(out):
        try:
            exec(compile("".join(cell["source"]), "<cell>", "exec"), namespace)
        except Exception as error:
            raised = type(error).__name__
    expected = next((o["ename"] for o in cell["outputs"] if o["output_type"] == "error"), None)
    results.append({"stdout": out.getvalue(), "raised": raised, "expected": expected})
print(json.dumps(results))
`;

const ERROR_CODE = 'numerator = 1\nprint("dividing", numerator, "by zero")\nnumerator / 0';
const SUM_CODE = 'total = sum(range(101))\nprint("sum of 0..100 =", total)';

type Output = { output_type: string; name?: string; text?: string[]; data?: Record<string, string | string[]>; ename?: string; evalue?: string };
type Cell = { cell_type: 'markdown' | 'code'; source: string[]; outputs?: Output[]; execution_count?: number | null };
type Notebook = { nbformat: number; nbformat_minor: number; metadata: { runpad: { title: string | null } }; cells: Cell[] };

const text = (lines: string[] | string | undefined) => (Array.isArray(lines) ? lines.join('') : (lines ?? ''));
const codeCells = (nb: Notebook) => nb.cells.filter((c) => c.cell_type === 'code');

function expectDownloadHeaders(response: APIResponse, kind: 'notebook' | 'script') {
  const headers = response.headers();
  expect(headers['content-type']).toBe(kind === 'notebook' ? 'application/x-ipynb+json' : 'text/x-python; charset=utf-8');
  expect(headers['content-disposition']).toMatch(kind === 'notebook' ? /^attachment; filename="[A-Za-z0-9_-]+\.ipynb"$/ : /^attachment; filename="[A-Za-z0-9_-]+\.py"$/);
  expect(headers['cache-control']).toBe('private, no-store');
  expect(headers['x-content-type-options']).toContain('nosniff');
}

/** Chooses Download → `item` in a header and returns the saved file's path and suggested name. */
async function downloadFrom(page: Page, menuButton: Locator, item: string, savePath: string): Promise<{ path: string; name: string }> {
  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: item, exact: true }).click();
  const download = await downloading;
  await download.saveAs(savePath);
  expect(await download.failure()).toBeNull();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  return { path: savePath, name: download.suggestedFilename() };
}

/** The distinct rows a flex-wrapped header lays its visible children out in. */
async function headerRows(header: Locator): Promise<number> {
  return header.evaluate((element) => {
    const centres: number[] = [];
    for (const child of Array.from(element.children)) {
      const box = child.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const centre = box.top + box.height / 2;
      if (!centres.some((c) => Math.abs(c - centre) < 4)) centres.push(centre);
    }
    return centres.length;
  });
}

test('a conversation downloads as a valid notebook and script; its share link too, until revoked', async ({ page, playwright, baseURL }, testInfo) => {
  const trigger = 'e2e-notebook-export';
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: PNG_CHART_CODE } } },
        { toolCall: { name: 'python', arguments: { code: ERROR_CODE } } },
        { toolCall: { name: 'python', arguments: { code: SUM_CODE } } },
        { text: 'Chart drawn, the division failed, and the sum is 5050.' },
      ],
    },
  ]);
  const question = `Draw a sine chart, divide one by zero, then add up 0 to 100. ${trigger}`;
  await openChat(page);
  await expect(page.getByRole('button', { name: 'Download this conversation' })).toHaveCount(0); // not saved yet
  await send(page, question);
  const cells = page.getByRole('region', { name: 'Python code cell' });
  await expect(page.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  await expect(cells.nth(1)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(2)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(2)).toContainText('sum of 0..100 = 5050');
  await waitForTurn(page);
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  const id = page.url().split('/c/')[1];
  const notebookUrl = `/api/conversations/${id}/notebook`;
  const scriptUrl = `/api/conversations/${id}/script`;

  // The title is generated after the answer, and the answer is stored when the turn ends: wait
  // for both, so the file downloaded below and the share made later see the same conversation.
  await expect
    .poll(async () => {
      const list = (await (await page.request.get('/api/conversations')).json()) as { items: Array<{ id: string; title: string; titled: boolean }> };
      const item = list.items.find((entry) => entry.id === id);
      return item?.titled ? item.title : null;
    })
    .not.toBeNull();
  await expect
    .poll(async () => {
      const response = await page.request.get(notebookUrl);
      if (!response.ok()) return `HTTP ${response.status()}`;
      const nb = (await response.json()) as Notebook;
      return nb.cells.some((c) => c.cell_type === 'markdown' && text(c.source).includes('the sum is 5050')) ? 'stored' : 'partial';
    })
    .toBe('stored');
  const direct = await page.request.get(notebookUrl);
  expectDownloadHeaders(direct, 'notebook');

  // The header control, at desktop and phone widths: no extra header row, the list on screen.
  const header = page.locator('header').first();
  const menuButton = header.getByRole('button', { name: 'Download this conversation' });
  await expect(menuButton).toBeVisible();
  expect(await headerRows(header)).toBe(1);
  await header.screenshot({ path: testInfo.outputPath('header-1280.png') });
  await menuButton.click();
  await expect(header.getByRole('link', { name: 'Notebook (.ipynb)' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('header-1280-open.png'), clip: { x: 0, y: 0, width: 1280, height: 160 } });
  await page.keyboard.press('Escape');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(menuButton).toBeFocused();
  await expect(header.getByRole('link', { name: 'Notebook (.ipynb)' })).toBeHidden();

  await page.setViewportSize({ width: 390, height: 844 });
  // The header keeps one row at this width (e2e/polish.spec.ts).
  await expect.poll(() => headerRows(header)).toBe(1);
  await header.screenshot({ path: testInfo.outputPath('header-390.png') });
  await menuButton.click();
  const list = header.getByRole('list', { name: 'Download this conversation as' });
  await expect(list).toBeVisible();
  const listBox = (await list.boundingBox())!;
  expect(listBox.x).toBeGreaterThanOrEqual(0);
  expect(listBox.x + listBox.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('header-390-open.png'), clip: { x: 0, y: 0, width: 390, height: 200 } });
  await header.getByRole('heading', { level: 1 }).click(); // a click elsewhere closes it
  await expect(list).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 720 });

  // Download → Notebook: a valid nbformat 4 notebook with the figure, the error and the talk.
  const saved = await downloadFrom(page, menuButton, 'Notebook (.ipynb)', testInfo.outputPath('conversation.ipynb'));
  expect(saved.name).toMatch(/^[A-Za-z0-9_-]+\.ipynb$/);
  expect(direct.headers()['content-disposition']).toBe(`attachment; filename="${saved.name}"`);
  expect(pythonWith(['python3-nbformat'], ['-c', VALIDATE, saved.path]).trim()).toBe('valid');
  const notebook = JSON.parse(readFileSync(saved.path, 'utf8')) as Notebook;
  expect(notebook.nbformat).toBe(4);
  expect(notebook.nbformat_minor).toBe(5);

  const markdown = notebook.cells.filter((c) => c.cell_type === 'markdown').map((c) => text(c.source));
  expect(markdown.some((m) => m.includes('Draw a sine chart, divide one by zero, then add up 0 to 100.'))).toBe(true);
  const [chartCell, errorCell, sumCell] = codeCells(notebook);
  expect(codeCells(notebook)).toHaveLength(3);
  expect(text(chartCell.source)).toContain('display(Chart())');
  const figure = chartCell.outputs!.find((o) => o.output_type === 'display_data' && typeof o.data?.['image/png'] === 'string');
  expect(figure, 'the figure as an embedded PNG').toBeTruthy();
  const png = Buffer.from(figure!.data!['image/png'] as string, 'base64');
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.readUInt32BE(16)).toBe(360); // IHDR width
  expect(png.readUInt32BE(20)).toBe(200); // IHDR height
  const error = errorCell.outputs!.find((o) => o.output_type === 'error');
  expect(error?.ename).toBe('ZeroDivisionError');
  expect(error?.evalue).toContain('division by zero');
  expect(errorCell.outputs!.some((o) => o.output_type === 'stream' && text(o.text).includes('dividing 1 by zero'))).toBe(true);
  expect(sumCell.outputs!.some((o) => o.output_type === 'stream' && text(o.text).includes('sum of 0..100 = 5050'))).toBe(true);

  // The code cells, run top to bottom in CPython (standard library only), do what they did.
  const runs = JSON.parse(stdlibPython(['-c', EXECUTE, saved.path])) as Array<{ stdout: string; raised: string | null; expected: string | null }>;
  expect(runs).toHaveLength(3);
  for (const run of runs) expect(run.raised).toBe(run.expected);
  expect(runs[0].stdout).toContain('drew a 360x200 sine chart');
  expect(runs[1].raised).toBe('ZeroDivisionError');
  expect(runs[2].stdout).toBe('sum of 0..100 = 5050\n');

  // Download → Python script: the same code, in cells.
  const script = await downloadFrom(page, menuButton, 'Python script (.py)', testInfo.outputPath('conversation.py'));
  expect(script.name).toBe(saved.name.replace(/\.ipynb$/, '.py'));
  const scriptText = readFileSync(script.path, 'utf8');
  expect(scriptText).toContain('# %%');
  expect(scriptText).toContain(SUM_CODE);
  expect(scriptText).toContain(ERROR_CODE);
  expectDownloadHeaders(await page.request.get(scriptUrl), 'script');

  // Download → With data: a zip that runs where it is unpacked (lib/notebook/bundle.server.ts).
  const bundle = await downloadFrom(page, menuButton, 'With data (.zip)', testInfo.outputPath('conversation.zip'));
  const folder = saved.name.replace(/\.ipynb$/, '');
  expect(bundle.name).toBe(`${folder}.zip`);
  const entries = unzipSync(new Uint8Array(readFileSync(bundle.path)));
  expect(Object.keys(entries).sort()).toEqual([`${folder}/${folder}.ipynb`, `${folder}/${folder}.py`, `${folder}/README.md`, `${folder}/data/`, `${folder}/requirements.txt`]);
  expect(JSON.parse(new TextDecoder().decode(entries[`${folder}/${folder}.ipynb`]))).toEqual(notebook);
  expect(new TextDecoder().decode(entries[`${folder}/${folder}.py`])).toBe(scriptText);
  expect(new TextDecoder().decode(entries[`${folder}/README.md`])).toContain(`python ${folder}.py`);

  // Share; a visitor without any cookie downloads the snapshot's notebook: the same notebook.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareUrl = await page.getByLabel('Share link').inputValue();
  const shareId = shareUrl.split('/s/')[1];
  expect(shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const visitor = await playwrightRequest.newContext({ baseURL });
  const shared = await visitor.get(`/api/shares/${shareId}/notebook`);
  expect(shared.status()).toBe(200);
  expectDownloadHeaders(shared, 'notebook');
  expect(shared.headers()['content-disposition']).toBe(`attachment; filename="${saved.name}"`);
  expect((await visitor.storageState()).cookies).toEqual([]);
  expect(await shared.json()).toEqual(notebook);
  const sharedScript = await visitor.get(`/api/shares/${shareId}/script`);
  expect(sharedScript.status()).toBe(200);
  expectDownloadHeaders(sharedScript, 'script');
  expect(await sharedScript.text()).toBe(scriptText);

  // The share page has the same control.
  const visitorBrowser = await newVisitorContext(playwright, baseURL!);
  const sharePage = await firstPage(visitorBrowser);
  await sharePage.goto(shareUrl);
  const shareHeader = sharePage.locator('header').first();
  const shareMenu = shareHeader.getByRole('button', { name: 'Download this shared conversation' });
  const fromSharePage = await downloadFrom(sharePage, shareMenu, 'Notebook (.ipynb)', testInfo.outputPath('shared.ipynb'));
  expect(fromSharePage.name).toBe(saved.name);
  await shareMenu.click();
  await expect(shareHeader.getByRole('link', { name: 'Notebook (.ipynb)' })).toBeVisible();
  await expect(shareHeader.getByRole('link', { name: 'With data (.zip)' })).toHaveCount(0); // the files are the owner's
  await sharePage.keyboard.press('Escape');
  expect(JSON.parse(readFileSync(fromSharePage.path, 'utf8'))).toEqual(notebook);
  await shareHeader.screenshot({ path: testInfo.outputPath('share-header-1280.png') });
  await sharePage.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => headerRows(shareHeader)).toBe(2);
  await shareMenu.click();
  const shareList = shareHeader.getByRole('list', { name: 'Download this shared conversation as' });
  await expect(shareList).toBeVisible();
  const shareListBox = (await shareList.boundingBox())!;
  expect(shareListBox.x).toBeGreaterThanOrEqual(0);
  expect(shareListBox.x + shareListBox.width).toBeLessThanOrEqual(390);
  await sharePage.screenshot({ path: testInfo.outputPath('share-header-390-open.png'), clip: { x: 0, y: 0, width: 390, height: 200 } });
  await visitorBrowser.close();

  // Revoked: the link's downloads are gone; the owner's are not.
  await page.getByRole('button', { name: 'Revoke', exact: true }).click();
  // The page says so once the server has revoked it (the Share button shows from the click on).
  await expect(page.getByRole('status').filter({ hasText: 'Link revoked' })).toBeAttached();
  expect((await visitor.get(`/api/shares/${shareId}/notebook`)).status()).toBe(404);
  expect((await visitor.get(`/api/shares/${shareId}/script`)).status()).toBe(404);
  expect((await visitor.get('/api/shares/not-a-share-id/notebook')).status()).toBe(404);
  expect((await page.request.get(notebookUrl)).status()).toBe(200);

  // Another guest (a session of its own) cannot download the conversation; nobody without one can.
  expect((await visitor.get(notebookUrl)).status()).toBe(401);
  expect((await visitor.get('/')).status()).toBe(200);
  expect((await visitor.storageState()).cookies.length).toBeGreaterThan(0);
  expect((await visitor.get(notebookUrl)).status()).toBe(404);
  expect((await visitor.get(scriptUrl)).status()).toBe(404);
  expect((await visitor.get(`/api/conversations/${id}/bundle`)).status()).toBe(404);
  expect((await visitor.get('/api/conversations/not-a-uuid/notebook')).status()).toBe(404);
  await visitor.dispose();
});
