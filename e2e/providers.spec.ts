import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Page } from '@playwright/test';
import { expect, patience } from './test';
import type { RecordedRequest } from './fixtures/fake-openai/server.mjs';
import { addScenarios, FAKE_MODEL, PNG_CHART_CODE, send, waitForTurn } from './helpers';
import { e2ePort } from './ports';

/**
 * Models picked per conversation (ARCHITECTURE.md, "Model loop: providers"): an app server whose
 * RUNPAD_MODELS lists one model per wire protocol, all served by the fake model server (which
 * records which protocol each request spoke). Started here, so only this file pays for it.
 */
const port = e2ePort(3198);
const origin = `http://127.0.0.1:${port}`;
const MODELS = [
  { id: 'gpt', provider: 'openai', model: 'fake-gpt', label: 'GPT (fake)', baseURL: `${FAKE_MODEL}/v1` },
  { id: 'claude', provider: 'anthropic', model: 'fake-claude', label: 'Claude (fake)', baseURL: `${FAKE_MODEL}/v1` },
  { id: 'gemini', provider: 'google', model: 'fake-gemini', label: 'Gemini (fake)', baseURL: `${FAKE_MODEL}/v1beta`, contextTokens: 1000000 },
  { id: 'local', provider: 'openai-compatible', model: 'fake-local', label: 'Local (fake)', baseURL: `${FAKE_MODEL}/v1`, tools: false, images: false },
];

let server: ChildProcess | null = null;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-providers-'));

test.describe.configure({ timeout: patience(300_000) });

test.beforeAll(async () => {
  server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      RUNPAD_DATA_DIR: dataDir,
      AUTH_SECRET: 'providers-secret-providers-secret-01234',
      RUNPAD_MODELS: JSON.stringify(MODELS),
      OPENAI_API_KEY: 'test-key',
      ANTHROPIC_API_KEY: 'test-key',
      GOOGLE_GENERATIVE_AI_API_KEY: 'test-key',
      OPENAI_BASE_URL: '',
      RUNPAD_MODEL: '',
      PYODIDE_PACKAGE_BASE_URL: `${FAKE_MODEL}/mirror/`,
      RUNPAD_MODEL_REQUESTS_PER_MINUTE: '100000',
      RUNPAD_MODEL_REQUESTS_PER_DAY: '100000',
      RUNPAD_LOG_LEVEL: 'error',
    },
  });
  await expect.poll(async () => (await fetch(`${origin}/`).catch(() => null))?.status ?? 0, { timeout: 90_000 }).toBe(200);
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function requestsWith(trigger: string): Promise<RecordedRequest[]> {
  const all = (await (await fetch(`${FAKE_MODEL}/__requests?all=1`)).json()) as RecordedRequest[];
  return all.filter((r) => JSON.stringify(r.body).includes(trigger) && !JSON.stringify(r.body).includes('Write a title'));
}

async function openNew(page: Page) {
  await page.goto(`${origin}/`);
  // Python boots in the page; on a loaded machine that takes a while.
  await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 150_000 });
}

test('a model is picked per conversation, switched mid-conversation, shown on each answer, and kept by reloads, new conversations, shares and forks', async ({ page, browser }) => {
  const stamp = Date.now();
  const first = `e2e-prov-claude-${stamp}`;
  const second = `e2e-prov-gemini-${stamp}`;
  await addScenarios([
    { trigger: first, steps: [{ text: 'Computing.', toolCall: { name: 'python', arguments: { code: 'print("answer", 6 * 7)' } } }, { echoToolResult: true, prefix: 'Claude saw: ' }] },
    { trigger: second, steps: [{ text: 'Gemini read the earlier run from the history.' }] },
  ]);
  await openNew(page);
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await expect(picker).toHaveValue('gpt');
  await expect(picker.locator('option')).toHaveText(['GPT (fake)', 'Claude (fake)', 'Gemini (fake) (1000k context)', 'Local (fake) (code blocks, no images)']);

  await picker.selectOption('claude');
  await send(page, `What is 6 times 7? ${first}`);
  await expect(page.locator('#conversation').getByText(/Claude saw:[\s\S]*answer 42/)).toBeVisible({ timeout: 60_000 });
  await waitForTurn(page);
  const answers = page.locator('[data-role="assistant"]');
  await expect(answers.last().getByTestId('answer-model')).toHaveText('Answered by Claude (fake)');
  const claudeRequests = await requestsWith(first);
  expect(claudeRequests.map((r) => r.protocol)).toEqual(['anthropic', 'anthropic']);
  // The run's output reached Claude as a tool_result of its tool_use.
  expect(JSON.stringify(claudeRequests[1].body)).toMatch(/"tool_result".*answer 42/);

  // Switch mid-conversation: the stored history is rebuilt in Gemini's format.
  await picker.selectOption('gemini');
  await send(page, `And now? ${second}`);
  await expect(page.locator('#conversation').getByText('Gemini read the earlier run from the history.')).toBeVisible();
  await waitForTurn(page);
  await expect(answers.last().getByTestId('answer-model')).toHaveText('Answered by Gemini (fake)');
  await expect(answers.first().getByTestId('answer-model')).toHaveText('Answered by Claude (fake)');
  const [geminiRequest] = await requestsWith(second);
  expect(geminiRequest.protocol).toBe('gemini');
  expect(geminiRequest.path).toBe('/v1beta/models/fake-gemini:streamGenerateContent');
  const contents = JSON.stringify(geminiRequest.body);
  expect(contents).toMatch(/"functionCall":\{[^}]*"name":"python"/);
  expect(contents).toMatch(/"functionResponse".*answer 42/);

  // Stored with the conversation; a new conversation starts with the one used last.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('gemini');
  await expect(page.locator('[data-role="assistant"]').first().getByTestId('answer-model')).toHaveText('Answered by Claude (fake)');
  const conversationUrl = page.url();
  await openNew(page);
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('gemini');

  // The server never takes the browser's word for a model.
  const forged = await page.request.post(`${origin}/api/chat`, {
    headers: { origin },
    data: { id: crypto.randomUUID(), modelId: 'gpt-9-unlisted', message: { id: 'forged1', role: 'user', parts: [{ type: 'text', text: 'hi' }] } },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain('not offered on this server');

  // A share shows who answered; a fork continues with the model of the last answer.
  await page.goto(conversationUrl);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareUrl = await page.getByLabel('Share link').inputValue();
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(shareUrl);
  await expect(visitor.getByTestId('answer-model')).toHaveText(['Answered by Claude (fake)', 'Answered by Gemini (fake)']);
  await visitor.getByRole('button', { name: 'Continue in my own chat' }).click();
  await expect(visitor).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  await expect(visitor.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('gemini');
  await visitorContext.close();
});

test('a model without tool calling writes code blocks, and a model without image input reads the figure in words', async ({ page }) => {
  const trigger = `e2e-prov-local-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ text: `Drawing it.\n\`\`\`python\n${PNG_CHART_CODE}\`\`\`\n` }, { echoToolResult: true, prefix: 'I read: ' }] }]);
  await openNew(page);
  await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption('local');
  await send(page, `Draw a sine chart. ${trigger}`);
  // The block ran as a cell and the user sees the figure.
  const cell = page.locator('section[data-target="python"]');
  await expect(cell).toHaveAttribute('data-cell-status', 'ok', { timeout: 60_000 });
  await expect(page.getByRole('img', { name: 'Figure 1' })).toBeVisible();
  await expect(page.locator('#conversation').getByText(/I read: Output of block 1 \(python\)/)).toBeVisible();
  await waitForTurn(page);
  await expect(page.locator('[data-role="assistant"]').last().getByTestId('answer-model')).toHaveText('Answered by Local (fake)');

  const requests = await requestsWith(trigger);
  expect(requests.map((r) => r.protocol)).toEqual(['openai-chat', 'openai-chat']);
  // No tools offered; told to write fenced blocks; the figure described, never sent as an image.
  expect(requests.every((r) => !r.body.tools)).toBe(true);
  expect(JSON.stringify(requests[0].body.messages)).toContain('fenced code block');
  const outputs = JSON.stringify(requests[1].body.messages);
  expect(outputs).toContain('Output of block 1 (python)');
  expect(outputs).toContain('PNG, 360×200 px');
  expect(outputs).toContain('images are not sent to this model');
  expect(outputs).not.toContain('image_url');
  expect(outputs).not.toContain('iVBORw0KGgo');
});

test('on a phone the model picker shows the whole name of every model', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openNew(page);
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  for (const model of MODELS) {
    await picker.selectOption(model.id);
    // The selected option's text, in the select's own font, fits inside it (less its padding and arrow).
    const { needed, room } = await picker.evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.options[select.selectedIndex].text;
      return { needed: context.measureText(text).width, room: select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16 };
    });
    expect(needed, model.label).toBeLessThanOrEqual(room);
  }
  // Nothing of the header is pushed out of the page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('header-390.png') });
});
