import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { addScenarios, chatRequestsFor, openChat, send, waitForTurn } from './helpers';
import { editCell, USER_RUN_BADGE } from './cell-run.mjs';
import { MAIN_UPLOAD_FILE_BYTES } from '../playwright.config';

/**
 * A drop is ready at once (docs/DECISIONS.md, 2026-12-07): a file dropped is read in place from the
 * dropped File while it is being kept on this device, so a query need not wait for the copy and the
 * hash; a message sent meanwhile waits for the keep, says so, and goes with the file's name and
 * columns; the next run after the keep reads the kept copy.
 */
test.describe.configure({ timeout: 420_000 });

const NAME = 'dropped_rows.csv';
/**
 * Over the upload limit that keeps a file on this device (24 MB on this suite's main server,
 * playwright.config.ts): 4 rows of 64 bytes, 100,000 times (25.6 MB).
 */
const PAD = 'x'.repeat(47);
const BLOCK = ['north,000000001', 'south,000000002', 'east_,000000003', 'west_,000000004'].map((row) => `${row},${PAD}\n`).join('');
const REPEAT = 100_000;
const HEADER = 'region,amount,note\n';
/** west_'s total (4 × REPEAT), written with or without thousands separators as the table shows numbers. */
const WEST_TOTAL = new RegExp(String(4 * REPEAT).replace(/\B(?=(\d{3})+(?!\d))/g, ',?'));
const SQL = 'SELECT region, COUNT(*) AS n, SUM(CAST(amount AS BIGINT)) AS total FROM dropped_rows GROUP BY region ORDER BY region';
const WHERE = 'import os\nprint("reads", os.path.realpath("/data/dropped_rows.csv"))';

let csvPath = '';

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-drop-'));
  csvPath = path.join(dir, NAME);
  const fd = fs.openSync(csvPath, 'w');
  fs.writeSync(fd, HEADER);
  const chunk = BLOCK.repeat(10_000);
  for (let i = 0; i < REPEAT / 10_000; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  expect(fs.statSync(csvPath).size).toBeGreaterThan(MAIN_UPLOAD_FILE_BYTES);
});

test('a file dropped is queried in place while it is kept; a message sent meanwhile goes once it is kept, naming its columns; the next run reads the kept copy', async ({ page }) => {
  const [ready, asked] = [`e2e-drop-ready-${Date.now()}`, `e2e-drop-asked-${Date.now()}`];
  await addScenarios([
    { trigger: ready, steps: [{ toolCall: { name: 'sql', arguments: { code: 'SELECT 42 AS answer' } } }, { text: 'Ready for your file.' }] },
    { trigger: asked, steps: [{ toolCall: { name: 'python', arguments: { code: WHERE } } }, { text: 'Read where it is kept.' }] },
  ]);
  await openChat(page);
  await send(page, `Start. ${ready}`);
  await expect(page.locator('#conversation').getByText('Ready for your file.')).toBeVisible({ timeout: 180_000 });
  await waitForTurn(page);
  const sqlCell = page.locator('section[data-target="sql"]').last();
  await expect(sqlCell).toHaveAttribute('data-cell-status', 'ok');

  // The keep's last step (recording the file in the conversation) waits until the test lets it
  // through: the file is "being kept" for as long as that, whatever the machine's speed.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/conversations\/[^/]+\/device-files$/, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await page.locator('input[type="file"][aria-label="Attach files"]').setInputFiles(csvPath);
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chip).toHaveAttribute('data-file-location', 'device');
  await expect(chip).toHaveAttribute('data-upload-status', 'keeping');

  // The person edits the cell to query the file: it runs now, reading the dropped File in place.
  const editor = await editCell(sqlCell, SQL);
  await editor.press('ControlOrMeta+Enter');
  await expect(sqlCell).toContainText(USER_RUN_BADGE.edited);
  await expect(sqlCell).toHaveAttribute('data-cell-status', 'ok', { timeout: 180_000 });
  await expect(sqlCell.getByTestId('table-output')).toHaveAttribute('data-row-count', '4');
  await expect(sqlCell.getByRole('row').filter({ hasText: 'west_' })).toContainText(WEST_TOTAL);
  await expect(chip).toHaveAttribute('data-upload-status', 'keeping');
  // The dropped file was read ahead of DuckDB by a helper the page started (lib/files/blob-prefetch.client.ts).
  expect(page.workers().map((worker) => new URL(worker.url()).pathname)).toContain('/workers/blob-prefetch.worker.mjs');

  // A message sent meanwhile waits for the keep and says so.
  const text = `Where is it read from? ${asked}`;
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
  await expect(page.getByTestId('queued-message')).toContainText('Sends when the files are ready');
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);

  release();
  await expect(page.getByTestId('queued-message')).toHaveCount(0, { timeout: 180_000 });
  await expect(page.locator('[data-role="user"]').last()).toContainText(text);
  await expect(page.locator('#conversation').getByText('Read where it is kept.')).toBeVisible({ timeout: 180_000 });
  await waitForTurn(page);
  // The model was told the file's name and columns.
  const [request] = await chatRequestsFor(asked);
  const context = JSON.stringify(request.body.messages);
  expect(context).toContain(`/data/${NAME}`);
  expect(context).toMatch(/region \(\w+\)/);
  // The run after the keep reads the kept copy (named by its SHA-256), not the dropped File.
  const pythonCell = page.locator('section[data-target="python"]').last();
  await expect(pythonCell).toHaveAttribute('data-cell-status', 'ok');
  await expect(pythonCell.getByTestId('cell-outputs')).toContainText(/reads \/mnt\/device\/[0-9a-f]{64}\/dataset/);
  // And the same query gives the same answer from it.
  await sqlCell.getByRole('button', { name: 'Run again' }).click();
  await expect(sqlCell).toContainText(USER_RUN_BADGE.rerun, { timeout: 180_000 });
  await expect(sqlCell).toHaveAttribute('data-cell-status', 'ok');
  await expect(sqlCell.getByRole('row').filter({ hasText: 'west_' })).toContainText(WEST_TOTAL);
  // Kept, the file is read from its copy: its helper is gone.
  await expect.poll(() => page.workers().some((worker) => worker.url().includes('/workers/blob-prefetch.worker.mjs'))).toBe(false);
});
