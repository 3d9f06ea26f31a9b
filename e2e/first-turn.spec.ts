import { expect, test, type Page, type Request } from './test';
import { addScenarios, chatRequestsFor, send } from './helpers';

/**
 * A new chat's first turn behaves like every later one: nothing asks for a conversation that is
 * not stored yet, the conversation is listed from the first send (and leaves the list when its first
 * answer fails and it holds nothing else), a silent model ends the turn in
 * the idle timeout's words, and a message sent the moment the box takes input reaches the model.
 */

/** Every API request the page makes, and every refusal it gets. */
function watchApi(page: Page) {
  const requests: Array<{ method: string; path: string }> = [];
  const refused: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push({ method: request.method(), path: url.pathname });
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) refused.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
  });
  return { requests, refused };
}

test('a new chat asks for nothing before it is stored, is listed from the first send, and a model silent after a keep-alive ends in the timeout’s words', async ({ page }) => {
  const trigger = `e2e-first-turn-silent-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ fault: { hang: 'after-headers', comment: true } }] }]);
  const api = watchApi(page);
  await page.goto('/');
  const composer = page.getByLabel('Message', { exact: true });
  await expect(composer).toBeEditable();
  const conversations = page.getByRole('navigation', { name: 'Conversations' });
  // The list has loaded (the new chat's id is not in it).
  await expect.poll(() => api.requests.some((r) => r.method === 'GET' && r.path === '/api/conversations')).toBe(true);

  await send(page, `Say nothing. ${trigger}`);
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split('/').at(-1)!;
  // Listed while its first answer is still pending.
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await expect(conversations.locator(`a[href="/c/${id}"]`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();

  // The e2e app gives up after 6 s without a byte (RUNPAD_MODEL_IDLE_TIMEOUT_MS in playwright.config.ts).
  const error = page.getByTestId('model-error');
  await expect(error).toHaveAttribute('data-cause', 'timeout', { timeout: 45_000 });
  await expect(error).toContainText('timed out');
  await expect(error).not.toContainText('Not found');
  expect(await chatRequestsFor(trigger)).toHaveLength(1);
  // Its first answer failed and it holds nothing else: the list no longer holds it.
  await page.reload();
  await expect(page.locator('[data-role="user"]')).toContainText('Say nothing.');
  await expect.poll(async () => (await (await page.request.get('/api/conversations')).json() as { items: Array<{ id: string }> }).items.map((item) => item.id)).not.toContain(id);
  await expect(conversations.locator(`a[href="/c/${id}"]`)).toHaveCount(0);

  // Nothing asked to resume or re-read the conversation before the first send stored it, and
  // nothing was refused (a refusal is also what the server logs as "conversation not owned").
  const firstPost = api.requests.findIndex((r) => r.method === 'POST' && r.path === '/api/chat');
  const beforeStored = api.requests.slice(0, firstPost);
  expect(beforeStored.filter((r) => r.path.startsWith(`/api/chat/${id}`) || r.path === `/api/conversations/${id}`)).toEqual([]);
  expect(api.refused).toEqual([]);
});

test('a message sent the moment the box accepts input reaches the model, even when the page’s scripts arrive late', async ({ page }) => {
  const trigger = `e2e-first-turn-early-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ text: 'Heard you at once.' }] }]);
  // A loaded machine: the page's scripts (and with them React) arrive well after its HTML.
  await page.route('**/_next/static/chunks/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await route.continue();
  });
  const api = watchApi(page);
  await page.goto('/', { waitUntil: 'commit' });
  // fill() waits until the box is editable: the first moment a user could type.
  await send(page, `Early bird. ${trigger}`);
  await expect(page.locator('#conversation').getByText('Heard you at once.')).toBeVisible();
  expect(await chatRequestsFor(trigger)).toHaveLength(1);
  expect(api.refused).toEqual([]);
});
