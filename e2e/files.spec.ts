import { expect, test, type Page } from './test';
import { addScenarios, chatRequestsFor, openChat, send, waitForTurn, waitForHydration } from './helpers';
import { MAIN_UPLOAD_FILE_BYTES } from '../playwright.config';
import { formatBytes } from '../lib/format';

const CSV = 'region,units,price\nnorth,12,2.5\nsouth,30,1.25\n"east, coast",8,4.0\nwest,50,1.0\n';

/** Drops files on the conversation the way a browser does: a DataTransfer with File objects. */
async function dropFiles(page: Page, files: Array<{ name: string; type: string; content: string }>) {
  const transfer = await page.evaluateHandle((specs) => {
    const data = new DataTransfer();
    for (const spec of specs) data.items.add(new File([spec.content], spec.name, { type: spec.type }));
    return data;
  }, files);
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}

test('a dropped CSV is readable by Python, described to the model, and still there after a reload', async ({ page }) => {
  const trigger = 'e2e-csv-units';
  const readCode = 'import csv\nwith open("/data/sales.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\nprint("total units:", sum(int(r["units"]) for r in rows))';
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: readCode } } }, { echoToolResult: true }] },
    { trigger: 'e2e-csv-again', steps: [{ toolCall: { name: 'python', arguments: { code: readCode.replace('total units', 'again') } } }, { text: 'read it again' }] },
  ]);
  await openChat(page);
  await dropFiles(page, [{ name: 'sales.csv', type: 'text/csv', content: CSV }]);
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chip).toContainText('sales.csv');
  await expect(chip).toHaveAttribute('data-upload-status', 'done');
  await send(page, `How many units in total? ${trigger}`);
  await expect(page.getByTestId('cell-outputs')).toContainText('total units: 100');
  await waitForTurn(page);

  const [first, second] = await chatRequestsFor(trigger);
  const userTurn = JSON.stringify(first.body.messages);
  expect(userTurn).toContain('/data/sales.csv');
  expect(userTurn).toContain('region');
  expect(userTurn).toContain('units (integer)');
  expect(JSON.stringify(second.body.messages.filter((m) => m.role === 'tool'))).toContain('total units: 100');

  await page.reload();
  await expect(page.getByRole('list', { name: 'Files sent with this message' })).toContainText('sales.csv');
  // A stored conversation starts Python when it is needed (typing, a run), not with the page.
  await waitForHydration(page);
  await send(page, 'Again please. e2e-csv-again');
  await expect(page.getByTestId('cell-outputs').last()).toContainText('again: 100');
});

test('a file written under /output/ becomes a download with the exact bytes', async ({ page }) => {
  const trigger = 'e2e-output-file';
  const content = 'name,value\\nalpha,1\\nbeta,2\\n';
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: `with open("/output/result.csv", "w") as f:\n    f.write("${content}")\nprint("written")` } } },
        { echoToolResult: true },
      ],
    },
  ]);
  await openChat(page);
  await send(page, `Write a result file. ${trigger}`);
  const chip = page.locator('a[data-output="file"]');
  await expect(chip).toContainText('result.csv');
  await waitForTurn(page);
  const download = page.waitForEvent('download');
  await chip.click();
  const file = await download;
  const path = await file.path();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(path, 'utf8')).toBe('name,value\nalpha,1\nbeta,2\n');
  const [, second] = await chatRequestsFor(trigger);
  expect(JSON.stringify(second.body.messages)).toContain('wrote /output/result.csv');
  await page.reload();
  await expect(page.locator('a[data-output="file"]')).toContainText('result.csv');
});

test('rejected uploads say why and store nothing', async ({ page }) => {
  await openChat(page);
  await dropFiles(page, [
    { name: 'tool.exe', type: 'application/octet-stream', content: 'MZ' },
    { name: '../../evil\u0001name.csv', type: 'text/csv', content: 'a,b\n1,2\n' },
  ]);
  const chips = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chips.filter({ hasText: 'tool.exe' })).toContainText('is not a supported type. Accepted: CSV, TSV');
  await expect(chips.filter({ hasText: 'evilname.csv' })).toHaveAttribute('data-upload-status', 'done');

  // Over the per-file limit: refused by the server before anything is stored.
  const id = crypto.randomUUID();
  const big = await page.evaluate(async ({ conversationId, limit }) => {
    const response = await fetch(`/api/conversations/${conversationId}/files`, {
      method: 'POST',
      headers: { 'x-file-name': 'big.csv' },
      body: new Blob([new Uint8Array(limit + 1)]),
    });
    return { status: response.status, body: await response.json() };
  }, { conversationId: id, limit: MAIN_UPLOAD_FILE_BYTES });
  expect(big.status).toBe(413);
  // The operator's limit (RUNPAD_UPLOAD_FILE_BYTES), in its words.
  expect(big.body.error).toContain(`larger than the ${formatBytes(MAIN_UPLOAD_FILE_BYTES)} limit per file`);
  const list = await page.evaluate(async (conversationId) => (await fetch(`/api/conversations/${conversationId}/files`)).status, id);
  expect(list).toBe(404);
});
