import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, dropCsv, openChat, send, waitForTurn, waitForHydration } from './helpers';
import { MAIN_APP_PORT, MAIN_UPLOAD_FILE_BYTES } from '../playwright.config';
import { formatBytes } from '../lib/format';

/**
 * Datasets kept on this device (issue 39): a file over the upload limit (the operator's
 * RUNPAD_UPLOAD_FILE_BYTES: 24 MB on this suite's main server, 100 MB by default) is kept in the browser's own storage
 * (OPFS), never uploaded; SQL and Python read it in place; it is there after a reload; a share's
 * reader who does not have it is told so and continues after dropping the same file.
 */
test.describe.configure({ timeout: 420_000 });

const NAME = 'device_rows.csv';
/**
 * Four rows of 64 bytes, repeated: 4 × 100,000 × 64 = 25.6 MB, over the main server's 24 MB upload
 * limit, which keeps a file on the device. The size is what matters here; rows are padded (a `note` column) so that the engines'
 * per-row work stays small.
 */
const PAD = 'x'.repeat(47);
const BLOCK = ['north,000000001', 'south,000000002', 'east_,000000003', 'west_,000000004'].map((row) => `${row},${PAD}\n`).join('');
const REPEAT = 100_000;
const HEADER = 'region,amount,note\n';
const BYTES = HEADER.length + BLOCK.length * REPEAT;
/** The server's blobs, as this suite's main app server stores them (playwright.config.ts). */
const BLOB_DIR = path.resolve(`e2e/.artifacts/data-${MAIN_APP_PORT}/blobs`);

const SQL = `SELECT region, COUNT(*) AS n, SUM(CAST(amount AS BIGINT)) AS total FROM device_rows GROUP BY region ORDER BY region`;
const PYTHON = [
  'lines = 0',
  `with open("/data/${NAME}", "rb") as f:`,
  '    for chunk in iter(lambda: f.read(1 << 20), b""):',
  '        lines += chunk.count(b"\\n")',
  'print("device lines", lines)',
].join('\n');

let csvPath = '';
let otherPath = '';

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-device-'));
  csvPath = path.join(dir, NAME);
  const fd = fs.openSync(csvPath, 'w');
  fs.writeSync(fd, HEADER);
  const chunk = BLOCK.repeat(12_500);
  for (let i = 0; i < REPEAT / 12_500; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  expect(fs.statSync(csvPath).size).toBe(BYTES);
  expect(BYTES).toBeGreaterThan(MAIN_UPLOAD_FILE_BYTES);
  // Another file under the same name: a different file for "drop the same file".
  fs.mkdirSync(path.join(dir, 'other'));
  otherPath = path.join(dir, 'other', NAME);
  fs.writeFileSync(otherPath, `${HEADER}north,1,x\n`);
});

/** Every file under the server's blob directory with its size (other tests upload beside this one). */
function blobsIn(dir: string): Map<string, number> {
  if (!fs.existsSync(dir)) return new Map();
  return new Map(fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => [path.join(entry.parentPath, entry.name), fs.statSync(path.join(entry.parentPath, entry.name)).size]));
}

/**
 * The file did not reach the server's blobs since `before`: no blob named by its SHA-256, and no new
 * file there of its size (a copy under another name). Measured by name and size, not by the
 * directory's growth: other tests upload other files to the same server meanwhile.
 */
function expectNotUploaded(before: Map<string, number>): void {
  const sha256 = createHash('sha256').update(fs.readFileSync(csvPath)).digest('hex');
  expect(fs.existsSync(path.join(BLOB_DIR, sha256.slice(0, 2), sha256))).toBe(false);
  expect([...blobsIn(BLOB_DIR)].filter(([file, size]) => !before.has(file) && size === BYTES)).toEqual([]);
}

async function expectNumbers(page: Page): Promise<void> {
  const sqlCell = page.locator('section[data-target="sql"]').last();
  await expect(sqlCell).toHaveAttribute('data-cell-status', 'ok', { timeout: 180_000 });
  await expect(sqlCell.getByTestId('table-output')).toHaveAttribute('data-row-count', '4');
  for (const [region, total] of [['north', String(REPEAT)], ['south', String(2 * REPEAT)], ['east_', String(3 * REPEAT)], ['west_', String(4 * REPEAT)]]) {
    // Written with or without thousands separators, as the table shows numbers.
    await expect(sqlCell.getByRole('row').filter({ hasText: region })).toContainText(new RegExp(total.replace(/\B(?=(\d{3})+(?!\d))/g, ',?')));
  }
  const pythonCell = page.locator('section[data-target="python"]').last();
  await expect(pythonCell).toHaveAttribute('data-cell-status', 'ok', { timeout: 180_000 });
  await expect(pythonCell).toContainText(`device lines ${4 * REPEAT + 1}`);
}

test('a CSV over the upload limit is kept on this device, read in place by SQL and Python, never uploaded, there after a reload, and a share reader continues by dropping the same file', async ({ page, playwright, baseURL }) => {
  const trigger = `e2e-device-${Date.now()}`;
  // Its own trigger: the fake model answers the first scenario whose trigger the message contains.
  const again = `e2e-again-${Date.now()}`;
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'sql', arguments: { code: SQL } } }, { toolCall: { name: 'python', arguments: { code: PYTHON } } }, { text: 'Counted on your device.' }] },
    { trigger: again, steps: [{ toolCall: { name: 'sql', arguments: { code: SQL } } }, { toolCall: { name: 'python', arguments: { code: PYTHON } } }, { text: 'Counted again.' }] },
  ]);
  await openChat(page);
  const blobsBefore = blobsIn(BLOB_DIR);
  await page.locator('input[type="file"][aria-label="Attach files"]').setInputFiles(csvPath);
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chip).toHaveAttribute('data-file-location', 'device');
  await expect(chip).toHaveAttribute('data-upload-status', 'done', { timeout: 180_000 });
  await expect(chip.getByTestId('file-location')).toHaveText('on this device');

  await send(page, `Count the rows. ${trigger}`);
  await expect(page.locator('#conversation').getByText('Counted on your device.')).toBeVisible({ timeout: 240_000 });
  await waitForTurn(page);
  await expectNumbers(page);

  // Nothing of it on the server: its blobs did not grow by the file's size, and it is listed as on the device.
  expectNotUploaded(blobsBefore);
  const conversationId = new URL(page.url()).pathname.split('/').at(-1);
  const listed = await page.evaluate(async (id) => (await (await fetch(`/api/conversations/${id}/files`)).json()) as { files: Array<{ name: string; size: number; location: string }> }, conversationId);
  expect(listed.files).toEqual([expect.objectContaining({ name: NAME, size: BYTES, location: 'device' })]);

  // After a reload the file is still here and read in place again.
  await page.reload();
  // A stored conversation starts Python when it is needed (typing, a run), not with the page.
  await waitForHydration(page);
  await send(page, `Count them again. ${again}`);
  await expect(page.locator('#conversation').getByText('Counted again.')).toBeVisible({ timeout: 240_000 });
  await waitForTurn(page);
  await expectNumbers(page);

  // A reader of the share does not have the file: the cells say so and offer to drop the same file.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareUrl = await page.getByLabel('Share link').inputValue();
  const context = await newVisitorContext(playwright, baseURL!, { viewport: { width: 1000, height: 900 } });
  try {
    const visitor = await firstPage(context);
    await visitor.goto(shareUrl);
    // The page never shows the reader the file's SHA-256: only a value salted for this link (lib/security/salted-hash.ts).
    expect(await visitor.content()).not.toContain(createHash('sha256').update(fs.readFileSync(csvPath)).digest('hex'));
    await visitor.getByRole('button', { name: 'Re-run in my browser' }).click();
    const summary = visitor.getByTestId('rerun-summary');
    await expect(summary).toHaveAttribute('data-rerun-phase', 'finished', { timeout: 180_000 });
    const cells = visitor.locator('section[data-target]');
    // Every cell of this conversation reads the kept file: each waits for it (a cell that reads none re-runs: lib/share/rerun.test.ts).
    await expect(cells.first().getByTestId('rerun-mark')).toHaveAttribute('data-rerun', 'needs-file');
    await expect(cells.first().getByTestId('rerun-mark')).toContainText(`${NAME} is kept on its owner's device`);
    const drop = cells.first().getByTestId('drop-same-file');
    await expect(drop).toContainText('Drop the same file to continue');

    // A different file under the same name is refused, both sizes named, and nothing is kept.
    await drop.getByLabel(`Choose ${NAME}`).setInputFiles(otherPath);
    await expect(drop.getByRole('alert')).toContainText('is a different file');
    await expect(drop.getByRole('alert')).toContainText(formatBytes(BYTES));
    const kept = () => visitor.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('runpad-datasets', { create: true });
      const names: string[] = [];
      for await (const name of dir.keys()) names.push(name);
      return names.filter((name) => /^[0-9a-f]{64}$/.test(name)).length;
    });
    expect(await kept()).toBe(0);

    // The same file is kept on the reader's device (never uploaded) and the re-run goes again: every cell the same.
    const blobsBeforeReader = blobsIn(BLOB_DIR);
    await drop.getByLabel(`Choose ${NAME}`).setInputFiles(csvPath);
    await expect(summary).toHaveText(/Re-ran 4 cells: 4 same, 0 different\./, { timeout: 240_000 });
    expect(await kept()).toBe(1);
    expectNotUploaded(blobsBeforeReader);
  } finally {
    await context.close();
  }
});

test('a small file moves to this device and back to the account from its chip, and My datasets adds it to another conversation', async ({ page }) => {
  const small = 'switch_me.csv';
  await openChat(page);
  await dropCsv(page, small, 'region,units\nnorth,3\nsouth,4\n');
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chip).toHaveAttribute('data-file-location', 'account');
  await expect(chip.getByTestId('file-location')).toHaveText('in your account');
  const listed = async (conversationId: string) =>
    page.evaluate(async (id) => (await (await fetch(`/api/conversations/${id}/files`)).json()) as { files: Array<{ name: string; location: string }> }, conversationId);

  const conversationId = await page.evaluate(async () => {
    const response = await fetch('/api/conversations?limit=1');
    const body = (await response.json()) as { items: Array<{ id: string }> };
    return body.items[0]?.id ?? '';
  });
  await chip.getByRole('button', { name: `Keep ${small} on this device` }).click();
  await expect(chip).toHaveAttribute('data-file-location', 'device', { timeout: 60_000 });
  await expect(chip.getByTestId('file-location')).toHaveText('on this device');
  expect((await listed(conversationId)).files).toEqual([expect.objectContaining({ name: small, location: 'device' })]);

  await chip.getByRole('button', { name: `Keep ${small} in your account` }).click();
  await expect(chip).toHaveAttribute('data-file-location', 'account', { timeout: 60_000 });
  expect((await listed(conversationId)).files).toEqual([expect.objectContaining({ name: small, location: 'account' })]);

  // Another conversation: My datasets lists the file (kept here and in the account) and adds it without a drop.
  await page.goto('/');
  await page.getByRole('button', { name: 'My datasets' }).click();
  const row = page.getByRole('list', { name: 'Datasets' }).getByRole('listitem').filter({ hasText: small });
  await expect(row).toHaveAttribute('data-on-device', 'true');
  await expect(row).toHaveAttribute('data-in-account', 'true');
  await row.getByRole('button', { name: `Add ${small} to this conversation` }).click();
  await expect(page.getByTestId('datasets-dialog')).toContainText(`${small} was added to this conversation`);
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  const added = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(added).toHaveAttribute('data-upload-status', 'done');
  await expect(added).toContainText(small);
});

test('a file a running cell reads cannot be removed from the device until the cell ends: the person is told why, and removing it afterwards frees it', async ({ page }) => {
  const name = 'held_open.csv';
  const trigger = `e2e-device-held-${Date.now()}`;
  const code = [`with open("/data/${name}") as f:`, '    print("header", f.readline().strip(), flush=True)', 'import time', 'time.sleep(120)'].join('\n');
  await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'Read it.' }] }]);
  await openChat(page);
  await dropCsv(page, name, 'region,units\nnorth,3\nsouth,4\n');
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await chip.getByRole('button', { name: `Keep ${name} on this device` }).click();
  await expect(chip).toHaveAttribute('data-file-location', 'device', { timeout: 60_000 });
  await send(page, `Read the header ${trigger}`);
  const cell = page.locator('section[data-target]').first();
  await expect(cell).toHaveAttribute('data-cell-status', 'running', { timeout: 120_000 });
  await expect(cell).toContainText('header region,units');

  await page.getByRole('button', { name: 'My datasets' }).click();
  const dialog = page.getByTestId('datasets-dialog');
  const row = page.getByRole('list', { name: 'Datasets' }).getByRole('listitem').filter({ hasText: name });
  await row.getByRole('button', { name: `Remove ${name} from this device` }).click();
  await expect(dialog).toContainText(`${name}: a cell that is running (in this tab or another) is reading it`);
  await expect(row).toHaveAttribute('data-on-device', 'true');
  await page.getByRole('button', { name: 'Close', exact: true }).click();

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(cell).toHaveAttribute('data-cell-status', 'interrupted');
  await waitForTurn(page);
  await page.getByRole('button', { name: 'My datasets' }).click();
  await row.getByRole('button', { name: `Remove ${name} from this device` }).click();
  await expect(dialog).toContainText(`${name} was removed from this device`);
});

test('when the device has no room, keeping a file says so in words (how much the browser allows, what to do) and the file stays in the account', async ({ page }) => {
  const name = 'no_room.csv';
  await openChat(page);
  await dropCsv(page, name, `region,units\n${'north,3\n'.repeat(20_000)}`);
  const chip = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(chip).toHaveAttribute('data-file-location', 'account');
  // The browser allows this origin 50 kB in all (less than the page already keeps): a full disk, as the browser reports it.
  const session = await page.context().newCDPSession(page);
  await session.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 50_000 });
  await chip.getByRole('button', { name: `Keep ${name} on this device` }).click();
  const refusal = chip.getByRole('alert');
  await expect(refusal).toContainText(`There is not enough room on this device to keep “${name}”`, { timeout: 60_000 });
  // How much the browser allows is its own estimate (the protocol's override limits the writes, not the estimate).
  await expect(refusal).toContainText(/: this browser allows this site [\d.]+ [kMGT]?B and [\d.]+ [kMGT]?B is in use\. Remove files you no longer need in My datasets, free disk space, or keep it in your account instead\.$/);
  await expect(chip).toHaveAttribute('data-file-location', 'account');
  await expect(chip.getByTestId('file-location')).toHaveText('in your account');
  const stored = await page.evaluate(async () => {
    const conversations = (await (await fetch('/api/conversations?limit=1')).json()) as { items: Array<{ id: string }> };
    return ((await (await fetch(`/api/conversations/${conversations.items[0]?.id}/files`)).json()) as { files: Array<{ name: string; location: string }> }).files;
  });
  expect(stored).toEqual([expect.objectContaining({ name, location: 'account' })]);
  // Nothing half-kept: the device's datasets directory, if there is room for it at all, holds no file.
  expect(await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('runpad-datasets').catch(() => null);
    const names: string[] = [];
    if (dir) for await (const entry of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(entry);
    return names;
  })).toEqual([]);
  await session.detach();
});
