import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from './test';
import { addScenarios, chatRequestsFor, FAKE_MODEL, openChat, send, waitForTurn, waitForHydration } from './helpers';
import { e2ePort } from './ports';

/**
 * Answers survive the page and the server: a reload mid-answer attaches to it, Stop stops the
 * model upstream, and an answer cut by a killed server is stored, marked, and can be continued.
 */

const chatText = (page: Page, text: string | RegExp) => page.locator('#conversation').getByText(text);
/** ~40 chunks of 6 characters, 150 ms apart: about six seconds of streaming. */
const SLOW = { chunkDelayMs: 150, chunkChars: 6 };
const LONG_ANSWER = `${'The answer streams in slowly, word after word. '.repeat(5)}THE END.`;

test('a reload mid-answer shows the text so far and the answer completes, without sending the question again', async ({ page }) => {
  const trigger = `e2e-resume-reload-${Date.now()}`;
  await addScenarios([{ trigger, ...SLOW, steps: [{ text: LONG_ANSWER }] }]);
  // The answer's streams as the browser receives them (it accepts gzip and Brotli): sent as written,
  // never through a compressor, which holds chunks back (a burst of the model's chunks arrived all
  // at once at the end of the answer).
  const streams: Array<{ path: string; status: number; encoding: string | undefined; cacheControl: string | undefined }> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === '/api/chat' || /^\/api\/chat\/[^/]+\/stream$/.test(url.pathname)) {
      const headers = response.headers();
      streams.push({ path: url.pathname === '/api/chat' ? 'chat' : 'resume', status: response.status(), encoding: headers['content-encoding'], cacheControl: headers['cache-control'] });
    }
  });
  await openChat(page);
  await send(page, `Tell me slowly. ${trigger}`);
  await expect(chatText(page, /The answer streams in/)).toBeVisible();
  await page.reload();
  // The list and the header name the conversation alike while the answer still comes (read at one
  // instant: the header falls back to the question, and the list must not say otherwise).
  const listed = page.getByRole('navigation', { name: 'Conversations' }).locator('a[aria-current="page"]');
  await expect(listed).toBeVisible();
  const names = await page.evaluate(() => ({
    header: document.querySelector('header h1')?.textContent ?? '',
    listed: document.querySelector('nav[aria-label="Conversations"] a[aria-current="page"]')?.textContent ?? '',
    streaming: !(document.querySelector('#conversation')?.textContent ?? '').includes('THE END.'),
  }));
  expect(names.listed).toBe(names.header);
  if (names.streaming) expect(names.header).toBe(`Tell me slowly. ${trigger}`);
  await expect(chatText(page, /THE END\./)).toBeVisible({ timeout: 60_000 });
  expect(await chatRequestsFor(trigger)).toHaveLength(1);
  const streamed = streams.filter((s) => s.status === 200);
  expect(streamed.map((s) => s.path)).toContain('chat');
  for (const stream of streamed) expect(stream, stream.path).toMatchObject({ encoding: undefined, cacheControl: expect.stringContaining('no-transform') });
  await expect
    .poll(() => page.evaluate(() => document.querySelector('header h1')?.textContent === document.querySelector('nav[aria-label="Conversations"] a[aria-current="page"]')?.textContent))
    .toBe(true);
  // Stored whole: another reload shows the same complete answer.
  await page.reload();
  await expect(chatText(page, /THE END\./)).toBeVisible();
  await expect(page.getByTestId('cut-off-answer')).toHaveCount(0);
});

test('Stop ends the model request upstream, and a stop before any text stores no empty answer', async ({ page }) => {
  const trigger = `e2e-stop-upstream-${Date.now()}`;
  // The model never answers, and a keep-alive comment each second keeps the app's idle timeout
  // (6 s here) from ending the turn: only the Stop does, however slowly the machine clicks (a first
  // chunk after 1 s raced the click under load; so did the idle timeout on a silent model).
  await addScenarios([{ trigger, steps: [{ fault: { hang: 'after-headers', keepAliveMs: 1_000 } }] }]);
  await openChat(page);
  await send(page, `Go slowly. ${trigger}`);
  await expect.poll(async () => (await chatRequestsFor(trigger)).length).toBe(1);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect.poll(async () => (await chatRequestsFor(trigger))[0]?.aborted).toBe(true);
  await waitForTurn(page);
  await page.reload();
  await expect(chatText(page, `Go slowly. ${trigger}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Regenerate' })).toHaveCount(0);
});

test.describe('a server killed mid-answer', { tag: '@long' }, () => {
  const port = e2ePort(3197);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-kill-'));
  let server: ChildProcess | null = null;

  async function startServer(): Promise<void> {
    server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        RUNPAD_DATA_DIR: dataDir,
        AUTH_SECRET: 'kill-test-secret-kill-test-secret-0123456',
        OPENAI_BASE_URL: `${FAKE_MODEL}/v1`,
        OPENAI_API_KEY: 'test-key',
        RUNPAD_MODEL: 'fake-model',
        PYODIDE_PACKAGE_BASE_URL: `${FAKE_MODEL}/mirror/`,
        RUNPAD_LOG_LEVEL: 'error',
      },
    });
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
  }

  function killServer(): void {
    if (server?.pid) process.kill(-server.pid, 'SIGKILL');
    server = null;
  }

  test.afterAll(() => {
    try {
      killServer();
    } catch {
      // already gone
    }
  });

  test('keeps the partial answer, marked as cut off; Continue completes it', async ({ page }) => {
    // Two starts of a production server (its embedded database included) and three page loads: up
    // to a minute each on a loaded machine.
    test.setTimeout(360_000);
    const trigger = `e2e-killed-mid-answer-${Date.now()}`;
    await addScenarios([{ trigger, chunkDelayMs: 250, chunkChars: 6, steps: [{ text: LONG_ANSWER }] }]);
    await startServer();
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
    await send(page, `Write a lot. ${trigger}`);
    await expect(page).toHaveURL(/\/c\//);
    const id = page.url().split('/c/')[1];
    // Wait until a draft of the answer holding its first words is stored (every ~2 s while it
    // streams), then kill. A draft can be stored before any text (the answer's start): waiting for
    // a draft alone killed the server before the words were kept, once, on a loaded machine.
    await expect
      .poll(async () => {
        const stored = await page.request.get(`http://127.0.0.1:${port}/api/conversations/${id}`);
        const body = stored.ok() ? ((await stored.json()) as { messages: Array<{ role: string; parts?: unknown; metadata?: { streaming?: boolean } }> }) : null;
        return body?.messages.some((m) => m.role === 'assistant' && m.metadata?.streaming === true && JSON.stringify(m.parts ?? []).includes('The answer streams in')) ?? false;
      }, { timeout: 30_000 })
      .toBe(true);
    killServer();
    await startServer();
    await page.goto(`http://127.0.0.1:${port}/c/${id}`);
    await expect(page.getByTestId('cut-off-answer')).toBeVisible();
    await expect(chatText(page, /The answer streams in/)).toBeVisible();
    // A stored conversation starts Python when it is needed (typing, a run), not with the page.
    await waitForHydration(page);
    await page.getByTestId('cut-off-answer').getByRole('button', { name: 'Continue' }).click();
    await expect(chatText(page, /THE END\./)).toBeVisible({ timeout: 60_000 });
    await waitForTurn(page);
    await page.reload();
    await expect(chatText(page, /THE END\./)).toBeVisible();
    await expect(page.getByTestId('cut-off-answer')).toHaveCount(0);
  });
});
