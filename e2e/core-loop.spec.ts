import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, chatRequestsFor, openChat, PNG_CHART_CODE, send, waitForTurn } from './helpers';

type Message = { role: string; content: unknown };
const toolMessages = (messages: Message[]) => messages.filter((m) => m.role === 'tool');

/**
 * The core loop's tests are turns of one conversation in one page (one interpreter): each reads
 * the cells its own turn added, after the ones before it. The figure comes first: its screenshot
 * is the documentation's, of a conversation that starts with it.
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

const pythonCells = () => page.getByRole('region', { name: 'Python code cell' });

test('an image displayed with _repr_png_ is shown and sent to the model as an image', async () => {
  const trigger = 'e2e-png-figure';
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: PNG_CHART_CODE } } }, { text: 'Here is the chart: a sine wave over two periods.' }] },
  ]);
  await send(page, `Draw a sine chart. ${trigger}`);
  const image = page.getByRole('img', { name: 'Figure 1' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(360);
  await waitForTurn(page);
  await expect(page.getByText('Here is the chart')).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/conversation-figure.png' });

  const requests = await chatRequestsFor(trigger);
  expect(requests).toHaveLength(2);
  const messages = requests[1].body.messages as Message[];
  // This turn's tool message: the conversation's earlier turns come before it.
  const toolIndex = messages.findLastIndex((m) => m.role === 'tool');
  const imageMessage = messages[toolIndex + 1];
  expect(imageMessage.role).toBe('user');
  const parts = imageMessage.content as Array<{ type: string; image_url?: { url: string } }>;
  expect(parts.some((p) => p.type === 'image_url' && p.image_url?.url.startsWith('data:image/png;base64,iVBOR'))).toBe(true);
  expect(JSON.stringify(messages[toolIndex])).toContain('[image 1: shown to the user, attached]');
});

test('a computed number is printed, shown, and sent back to the model', async () => {
  const trigger = 'e2e-compute-squares';
  await addScenarios([
    {
      trigger,
      steps: [
        { text: 'Computing it.', toolCall: { name: 'python', arguments: { code: 'total = sum(i * i for i in range(1, 101))\nprint(f"sum of squares = {total}")' } } },
        { echoToolResult: true, prefix: 'From the run: ' },
      ],
    },
  ]);
  const cell = pythonCells().nth(await pythonCells().count());
  await send(page, `What is the sum of the squares 1..100? ${trigger}`);
  await expect(cell.getByTestId('cell-outputs')).toContainText('sum of squares = 338350');
  await expect(cell).toHaveAttribute('data-cell-status', 'ok');
  await waitForTurn(page);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('From the run:');

  const requests = await chatRequestsFor(trigger);
  expect(requests).toHaveLength(2);
  const tools = toolMessages(requests[1].body.messages as Message[]);
  expect(JSON.stringify(tools)).toContain('sum of squares = 338350');
});

test('a traceback is shown, goes back to the model, and its second attempt succeeds', async () => {
  const trigger = 'e2e-self-correct';
  await addScenarios([
    {
      trigger,
      steps: [
        { toolCall: { name: 'python', arguments: { code: 'values = [2, 4, 9]\nprint(sum(values) / len(valuez))' } } },
        { text: 'Typo; fixing.', toolCall: { name: 'python', arguments: { code: 'print("mean =", sum(values) / len(values))' } } },
        { echoToolResult: true },
      ],
    },
  ]);
  const before = await pythonCells().count();
  await send(page, `Mean of 2, 4, 9? ${trigger}`);
  const cells = pythonCells();
  await expect(cells.nth(before)).toHaveAttribute('data-cell-status', 'error');
  await expect(cells.nth(before)).toContainText("NameError: name 'valuez' is not defined");
  await expect(cells.nth(before + 1)).toHaveAttribute('data-cell-status', 'ok');
  await expect(cells.nth(before + 1)).toContainText('mean = 5.0');
  await waitForTurn(page);

  const requests = await chatRequestsFor(trigger);
  expect(requests).toHaveLength(3);
  const firstResult = JSON.stringify(toolMessages(requests[1].body.messages as Message[]).at(-1));
  expect(firstResult).toContain('NameError');
  expect(firstResult).toContain('len(valuez)');
});

test('variables persist between runs in a conversation', async () => {
  const trigger = 'e2e-persist-a';
  const second = 'e2e-persist-b';
  await addScenarios([
    { trigger, steps: [{ toolCall: { name: 'python', arguments: { code: 'secret_number = 21' } } }, { text: 'Stored.' }] },
    { trigger: second, steps: [{ toolCall: { name: 'python', arguments: { code: 'print(secret_number * 2)' } } }, { echoToolResult: true }] },
  ]);
  const before = await pythonCells().count();
  await send(page, `Remember a number. ${trigger}`);
  await expect(pythonCells()).toHaveCount(before + 1);
  await waitForTurn(page);
  await send(page, `Now double it. ${second}`);
  const cells = pythonCells();
  await expect(cells.nth(before + 1).getByTestId('cell-outputs')).toContainText('42');
  await expect(cells.nth(before + 1)).toHaveAttribute('data-cell-status', 'ok');
});
