import type { Locator, Page } from '@playwright/test';
import { expect } from './test';
import type { FakeScenario, RecordedRequest } from './fixtures/fake-openai/server.mjs';

import { FAKE_MODEL_URL } from './ports';
import { runTimeMs } from './cell-run.mjs';

export const FAKE_MODEL = FAKE_MODEL_URL;

export async function addScenarios(scenarios: FakeScenario[]): Promise<void> {
  const response = await fetch(`${FAKE_MODEL}/__scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenarios }),
  });
  expect(response.ok).toBe(true);
}

/** Lets the held streams of a scenario with `hold` send the rest of their answer. */
export async function releaseHeld(trigger: string): Promise<void> {
  const response = await fetch(`${FAKE_MODEL}/__release`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ trigger }) });
  expect(response.ok).toBe(true);
}

/** Chat requests (not title requests) of the conversation whose first user message has the trigger. */
export async function chatRequestsFor(trigger: string): Promise<RecordedRequest[]> {
  const all = (await (await fetch(`${FAKE_MODEL}/__requests`)).json()) as RecordedRequest[];
  return all.filter((r) => r.body.tools && JSON.stringify(r.body.messages).includes(trigger));
}

/** Every Chat Completions request the fake model received for the trigger: the answers' and the title's. */
export async function requestsFor(trigger: string): Promise<RecordedRequest[]> {
  const all = (await (await fetch(`${FAKE_MODEL}/__requests`)).json()) as RecordedRequest[];
  return all.filter((r) => JSON.stringify(r.body.messages).includes(trigger));
}

/**
 * Waits until the page's scripts run (the composer is read-only until then): events a test
 * dispatches itself, such as a focus, reach no listener before that, and the page shows its
 * server-rendered messages long before on a loaded machine.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('#composer')).toBeEditable({ timeout: 60_000 });
}

export async function openChat(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
}

/**
 * Starts Python on a page where it waits to be needed (a stored conversation: components/chat/chat.tsx,
 * `pythonStart`) with the header's Start, and waits until it is ready.
 */
export async function startPython(page: Page): Promise<void> {
  const status = page.getByTestId('kernel-status');
  await expect(status).toHaveAttribute('data-kernel-state', 'not-started', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(status).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
}

export async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(text);
  await composer.press('Enter');
}

/** A cell's status while its run has not ended (components/chat/run-status.tsx's kinds). */
const CELL_IN_PROGRESS = /^(writing|queued|loading-packages|loading-files|starting-engine|running)$/;

/**
 * Waits for the first `count` code cells of the conversation to finish, one after another: each
 * wait is for one cell's own work (an engine's start and its run), from the states the cells
 * announce, not one net over a whole turn of several engines (which a slower machine outran).
 */
export async function waitForCells(page: Page, count: number): Promise<void> {
  const cells = page.locator('section[data-target]');
  for (let index = 0; index < count; index++) {
    await expect(cells.nth(index)).toBeAttached();
    await expect(cells.nth(index)).toHaveAttribute('data-cell-status', /.+/);
    await expect(cells.nth(index)).not.toHaveAttribute('data-cell-status', CELL_IN_PROGRESS);
  }
}

/** A finished cell's run time as its status says it ("done in 1.2 s", "timed out after 340 ms"), in ms. */
export async function cellDurationMs(cell: Locator): Promise<number> {
  return runTimeMs(await cell.textContent());
}

/** Waits until the turn is over: no Stop button, and the last cell (if any) has finished. */
export async function waitForTurn(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({ timeout: 60_000 });
}

/** A tiny PNG chart drawn with the standard library only (no matplotlib offline). */
export const PNG_CHART_CODE = `import math, struct, zlib

class Chart:
    """A 360x200 sine chart as PNG bytes, drawn pixel by pixel."""
    def __init__(self, w=360, h=200):
        self.w, self.h = w, h
    def _repr_png_(self):
        w, h = self.w, self.h
        rows = []
        for y in range(h):
            row = bytearray([0])
            for x in range(w):
                v = h / 2 - math.sin(x / w * 4 * math.pi) * (h / 2 - 12)
                on_curve = abs(y - v) < 2.2
                axis = y == h // 2 or x == 0
                r, g, b = (37, 99, 235) if on_curve else (160, 160, 160) if axis else (255, 255, 255)
                row += bytes([r, g, b])
            rows.append(bytes(row))
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
        header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
        return b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")

display(Chart())
print("drew a 360x200 sine chart")
`;

/** Drops a CSV onto the conversation, as a user drags a file in, and waits until it is uploaded (its own chip, among any others). */
export async function dropCsv(page: Page, name: string, content: string) {
  const transfer = await page.evaluateHandle(
    ([fileName, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text], fileName, { type: 'text/csv' }));
      return data;
    },
    [name, content] as const,
  );
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  // Its own chip: other files may be attached already.
  await expect(page.getByRole('list', { name: 'Attached files' }).getByRole('listitem').filter({ hasText: name })).toHaveAttribute('data-upload-status', 'done');
}

/** A file as a test drops it: its name, bytes and media type. */
export type DroppedFile = { name: string; bytes: Uint8Array; type: string };

/** Drops files onto the conversation together, as a user drags them in, and waits until each is uploaded. */
export async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  const encoded = files.map((file) => ({ name: file.name, type: file.type, base64: Buffer.from(file.bytes).toString('base64') }));
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name, { type: file.type }));
    return data;
  }, encoded);
  const target = page.locator('#conversation');
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  const items = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  for (const file of files) await expect(items.filter({ hasText: file.name })).toHaveAttribute('data-upload-status', 'done', { timeout: 120_000 });
}

/** Clicks Share on the open conversation and returns the link it shows (an unguessable /s/ id). */
export async function shareLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const url = await page.getByLabel('Share link').inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
  return url;
}
