import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, newVisitorContext, firstPage, test, type Page } from './test';
import { addScenarios, send, waitForHydration, waitForTurn } from './helpers';
import { e2ePort } from './ports';

/**
 * A dataset kept on the device (ARCHITECTURE.md, "Datasets kept on the device"), read in place by
 * every engine: a 50 MB CSV built here is written into the page's OPFS and recorded on the server
 * by its name, size and SHA-256 only. DuckDB (a SQL cell, and Python's sql() naming the file) and
 * Python (line by line) read it with the right numbers; R reads it too; the server's data
 * directory does not grow by its size; Python's wasm heap does not grow with it; after a reload it
 * is read again; a browser without the file gets the on-device failure's words.
 */
test.describe.configure({ timeout: 1_200_000 });

const NAME = 'device-big.csv';
const TABLE = 'device_big';
/**
 * 480,000 rows of ~105 bytes (~50 MB): large enough that a copy of it would show in Python's heap
 * (which does not grow at all, at 50 MB as at 150 MB) and in the server's data directory, small
 * enough to keep the suite short: the engines' per-row work is the test's cost (152 MB took it two
 * minutes). The file is written into the page's storage here, so the size at which a dropped file
 * is kept on the device by default (100 MB) does not apply: e2e/device-datasets.spec.ts drops one
 * over it. The multi-gigabyte figures are in bench/ (bench/device-datasets.mjs).
 */
const ROWS = 480_000;
const ROWS_PER_CHUNK = 100_000;
const GROUPS = 7;
/** Every row's last column (no comma, semicolon or quote): text the engines read past, making each row ~105 bytes. */
const NOTE = 'kept on this device and read in place and never uploaded as one row of the dataset padded to size';
/** The main app server's data directory (playwright.config.ts, appServer). */
const DATA_DIR = path.resolve('e2e/.artifacts', `data-${e2ePort(3100)}`);

/** The CSV, a chunk at a time (`id,grp,value,note`; row i is in group i % 7 with value i % 100). */
function* csvChunks(): Generator<string> {
  yield 'id,grp,value,note\n';
  for (let start = 0; start < ROWS; start += ROWS_PER_CHUNK) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(start + ROWS_PER_CHUNK, ROWS); i++) lines.push(`${i},g${i % GROUPS},${i % 100},${NOTE}\n`);
    yield lines.join('');
  }
}

/** The file's SHA-256 and size, and each group's count and sum, worked out from the rows (not read back). */
function describeCsv(): { sha256: string; size: number; summary: string } {
  const hash = createHash('sha256');
  let size = 0;
  for (const chunk of csvChunks()) {
    hash.update(chunk);
    size += Buffer.byteLength(chunk);
  }
  const count = new Array<number>(GROUPS).fill(0);
  const sum = new Array<number>(GROUPS).fill(0);
  for (let i = 0; i < ROWS; i++) {
    count[i % GROUPS] += 1;
    sum[i % GROUPS] += i % 100;
  }
  return { sha256: hash.digest('hex'), size, summary: count.map((n, g) => `g${g}=${n}/${sum[g]}`).join(';') };
}

/** Writes the CSV into the page's OPFS as runpad-datasets/<sha256>, a chunk per call (never whole in either process). */
async function keepOnDevice(page: Page, sha256: string): Promise<void> {
  await page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('runpad-datasets', { create: true });
    const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
    (window as unknown as { __deviceWritable: FileSystemWritableFileStream }).__deviceWritable = writable;
  }, sha256);
  for (const chunk of csvChunks()) {
    await page.evaluate((text) => (window as unknown as { __deviceWritable: FileSystemWritableFileStream }).__deviceWritable.write(text), chunk);
  }
  await page.evaluate(() => (window as unknown as { __deviceWritable: FileSystemWritableFileStream }).__deviceWritable.close());
}

function sizeOf(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).reduce((total, entry) => (entry.isFile() ? total + fs.statSync(path.join(entry.parentPath, entry.name)).size : total), 0);
}

const HEAP = 'import pyodide_js\nprint("heap:", pyodide_js._module.HEAPU8.length)';
const GROUP_BY = `SELECT string_agg(grp || '=' || CAST(n AS VARCHAR) || '/' || CAST(total AS VARCHAR), ';' ORDER BY grp) AS summary FROM (SELECT grp, count(*) AS n, sum(value) AS total FROM ${TABLE} GROUP BY grp)`;
const PY_SQL = `t = sql("SELECT count(*) AS n FROM '/data/${NAME}'")\nprint("sql rows:", t.rows[0][0])`;
const COUNT_LINES = [
  'import pyodide_js',
  'n = 0',
  `with open("/data/${NAME}") as f:`,
  '    for line in f:',
  '        n += 1',
  'print("lines:", n, "heap:", pyodide_js._module.HEAPU8.length)',
].join('\n');
const R_COUNT = [
  `con <- file("/data/${NAME}", "rb")`,
  'n <- 0',
  'while (length(chunk <- readBin(con, raw(), 8e6)) > 0) n <- n + sum(chunk == as.raw(10))',
  'close(con)',
  'cat("r lines:", format(n, scientific = FALSE), "\\n")',
].join('\n');

test('a 50 MB CSV kept on the device: SQL, Python and R read it in place, nothing reaches the server, the heap stays flat, a reload reads it again, another browser is told', { tag: '@long' }, async ({ page, playwright, baseURL }) => {
  const csv = describeCsv();
  expect(csv.size).toBeGreaterThan(45_000_000);
  const first = `e2e-device-first-${Date.now()}`;
  const again = `e2e-device-again-${Date.now()}`;
  const elsewhere = `e2e-device-elsewhere-${Date.now()}`;
  await addScenarios([
    {
      trigger: first,
      steps: [
        { toolCall: { name: 'python', arguments: { code: HEAP } } },
        { toolCall: { name: 'sql', arguments: { code: GROUP_BY } } },
        { toolCall: { name: 'python', arguments: { code: PY_SQL } } },
        { toolCall: { name: 'python', arguments: { code: COUNT_LINES } } },
        { toolCall: { name: 'r', arguments: { code: R_COUNT } } },
        { text: 'read in place' },
      ],
    },
    { trigger: again, steps: [{ toolCall: { name: 'python', arguments: { code: COUNT_LINES } } }, { text: 'read again' }] },
    { trigger: elsewhere, steps: [{ toolCall: { name: 'python', arguments: { code: COUNT_LINES } } }, { text: 'not here' }] },
  ]);

  // The longest run limit a person may pick: reading the file on a loaded machine is measured, not cut off.
  await page.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 300_000 })));
  await page.goto('/');
  await waitForHydration(page);
  const dataBefore = sizeOf(DATA_DIR);
  await keepOnDevice(page, csv.sha256);
  const id = randomUUID();
  const recorded = await page.evaluate(
    async ({ id, body }) => {
      const response = await fetch(`/api/conversations/${id}/device-files`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { id, body: { name: NAME, size: csv.size, sha256: csv.sha256 } },
  );
  expect(recorded).toEqual({ status: 201, body: expect.objectContaining({ name: NAME, size: csv.size, location: 'device' }) });

  await page.goto(`/c/${id}`);
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 180_000 });
  await send(page, `Summarise the kept file. ${first}`);
  const cells = page.getByTestId('cell-outputs');
  await expect(page.getByText('read in place')).toBeVisible({ timeout: 900_000 });
  await waitForTurn(page);
  console.log((await cells.allTextContents()).map((text, i) => `cell ${i}: ${text.slice(0, 300)}`).join('\n'));
  await expect(cells.nth(4)).toContainText(`r lines: ${ROWS + 1}`);
  const heapAtStart = Number(/heap: (\d+)/.exec((await cells.nth(0).textContent()) ?? '')?.[1]);
  await expect(cells.nth(1)).toContainText(csv.summary);
  await expect(cells.nth(2)).toContainText(`sql rows: ${ROWS}`);
  const counted = /lines: (\d+) heap: (\d+)/.exec((await cells.nth(3).textContent()) ?? '');
  expect(counted?.[1]).toBe(String(ROWS + 1));
  const heapGrowth = Number(counted?.[2]) - heapAtStart;
  console.log(`file ${(csv.size / 1e6).toFixed(1)} MB; Python heap ${(heapAtStart / 2 ** 20).toFixed(0)} MiB at start, grew by ${(heapGrowth / 2 ** 20).toFixed(1)} MiB over the SQL, sql() and line count`);
  expect(heapAtStart).toBeGreaterThan(0);
  expect(heapGrowth).toBeLessThan(csv.size / 8);
  // Nothing of the file reached the server: only its record (the database lives in the data directory too).
  expect(sizeOf(DATA_DIR) - dataBefore).toBeLessThan(csv.size / 10);

  await page.reload();
  // A stored conversation starts Python when it is needed (typing, a run), not with the page.
  await waitForHydration(page);
  await send(page, `Count again. ${again}`);
  await expect(page.getByTestId('cell-outputs').last()).toContainText(`lines: ${ROWS + 1}`, { timeout: 300_000 });
  await waitForTurn(page);

  // The same person in a browser that does not have the file: the run says where the file is.
  const other = await newVisitorContext(playwright, baseURL ?? '');
  try {
    await other.addCookies(await page.context().cookies());
    const otherPage = await firstPage(other);
    await otherPage.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 300_000 })));
    await otherPage.goto(`/c/${id}`);
    // A stored conversation starts Python when it is needed (typing, a run), not with the page.
    await waitForHydration(otherPage);
    await send(otherPage, `Count here. ${elsewhere}`);
    await expect(otherPage.getByText(`The file ${NAME} is kept on its owner's device, not in the account, and this browser does not have it. Drop the same file here to continue.`).first()).toBeVisible({ timeout: 120_000 });
    await waitForTurn(otherPage);
  } finally {
    await other.close();
  }
});
