import { chromium, expect, request as playwrightRequest, test, type APIRequestContext } from './test';
import { startTlsProxy } from './fixtures/tls-proxy.mjs';
import { e2ePort } from './ports';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './browser';

/**
 * Limits a public deployment lives by, against the app server started with small ones
 * (playwright.config.ts, STRICT_APP_PORT): 4 model requests per minute, 3 MB per conversation,
 * 5 MB per guest; and the session cookie over HTTPS, behind a TLS proxy as in production.
 */

async function guest(baseURL: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL });
  expect((await context.get('/')).status()).toBe(200);
  return context;
}

const chatBody = (id: string, text: string) => ({ id, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] } });

test('model requests past the per-minute limit get a 429 with Retry-After and words, and store nothing', async ({ baseURL }) => {
  const visitor = await guest(baseURL!);
  const id = crypto.randomUUID();
  for (let i = 0; i < 4; i += 1) {
    const response = await visitor.post('/api/chat', { data: chatBody(id, `question ${i}`) });
    expect(response.status()).toBe(200);
    await response.body();
  }
  const limitedId = crypto.randomUUID();
  const limited = await visitor.post('/api/chat', { data: chatBody(limitedId, 'one too many') });
  expect(limited.status()).toBe(429);
  const retryAfter = Number(limited.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect((await limited.json()).error).toMatch(/Try again in \d+ seconds/);
  // Nothing half-stored: the refused request did not even create its conversation.
  expect((await visitor.get(`/c/${limitedId}`)).status()).toBe(404);
  // Another guest is not limited by this one.
  const other = await guest(baseURL!);
  const fine = await other.post('/api/chat', { data: chatBody(crypto.randomUUID(), 'hello') });
  expect(fine.status()).toBe(200);
  await fine.body();
  await visitor.dispose();
  await other.dispose();
});

test('a limited user reads what happened and when to try again', async ({ page }) => {
  await page.goto('/');
  // Spend the guest's minute from the page itself, as a quick user would.
  const statuses = await page.evaluate(async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: crypto.randomUUID(), message: { id: `m${i}`, role: 'user', parts: [{ type: 'text', text: 'hi' }] } }),
      });
      await response.text();
      codes.push(response.status);
    }
    return codes;
  });
  expect(statuses).toEqual([200, 200, 200, 200]);
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill('one more');
  await composer.press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: 'reached' });
  await expect(alert).toContainText(/reached too many requests to the model in the last minute\. Try again in \d+ seconds/);
  await expect(alert).not.toContainText('{');
});

async function upload(owner: APIRequestContext, conversationId: string, name: string, bytes: number, seed: string) {
  return owner.post(`/api/conversations/${conversationId}/files`, {
    headers: { 'x-file-name': encodeURIComponent(name), 'content-type': 'application/octet-stream' },
    data: Buffer.from(`${seed}\n`.padEnd(bytes, 'x')),
  });
}

test('storage quotas hold against parallel uploads, per conversation and per guest', async ({ baseURL }) => {
  const owner = await guest(baseURL!);
  const id = crypto.randomUUID();
  // Five 700 kB files at once into a 3 MB conversation: exactly four fit, whatever the order.
  const results = await Promise.all(Array.from({ length: 5 }, (_, i) => upload(owner, id, `part-${i}.csv`, 700_000, `${id}-${i}`)));
  const statuses = results.map((r) => r.status()).sort();
  expect(statuses).toEqual([201, 201, 201, 201, 413]);
  const refused = results.find((r) => r.status() === 413)!;
  expect((await refused.json()).error).toContain('This conversation already holds');
  const files = (await (await owner.get(`/api/conversations/${id}/files`)).json()) as { files: unknown[] };
  expect(files.files).toHaveLength(4);

  // The guest's 5 MB: 2.8 MB used; a second conversation takes 2 MB more, then the guest is full.
  const second = crypto.randomUUID();
  expect((await upload(owner, second, 'a.csv', 1_000_000, `${second}-a`)).status()).toBe(201);
  expect((await upload(owner, second, 'b.csv', 1_000_000, `${second}-b`)).status()).toBe(201);
  const full = await upload(owner, second, 'c.csv', 1_000_000, `${second}-c`);
  expect(full.status()).toBe(413);
  expect((await full.json()).error).toContain('allowed per guest');

  // Deleting gives the bytes back.
  expect((await owner.delete(`/api/conversations/${id}`)).status()).toBe(204);
  expect((await upload(owner, second, 'c.csv', 1_000_000, `${second}-c`)).status()).toBe(201);
  await owner.dispose();
});

test('over HTTPS the session cookie is __Host-, and a sibling subdomain cannot plant its own', async () => {
  const attackerPage = `<!doctype html><title>evil</title><script>
    document.cookie = "__Host-runpad_session=attacker; Secure; Path=/; Domain=runpad.test";
    document.cookie = "runpad_session=v1.00000000-0000-4000-8000-000000000000.forged; Path=/; Domain=runpad.test";
    document.title = "planted";
  </script>`;
  const proxy = await startTlsProxy({ appPort: e2ePort(3102), attackerPage });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.runpad.test 127.0.0.1'],
  });
  try {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const app = `https://app.runpad.test:${proxy.port}`;
    await page.goto(`${app}/`);
    const issued = (await context.cookies(app)).find((c) => c.name === '__Host-runpad_session');
    expect(issued).toMatchObject({ secure: true, path: '/', domain: 'app.runpad.test', httpOnly: true });
    // The victim starts a conversation as their own guest.
    const id = crypto.randomUUID();
    const started = await page.evaluate(async (conversationId) => {
      const response = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: conversationId, message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'mine' }] } }),
      });
      await response.text();
      return response.status;
    }, id);
    expect(started).toBe(200);

    // A page on a sibling subdomain tries to plant cookies for the whole site.
    const evil = await context.newPage();
    await evil.goto(`https://evil.runpad.test:${proxy.port}/`);
    await expect(evil).toHaveTitle('planted');
    const names = (await context.cookies(app)).map((c) => `${c.name}=${c.name === '__Host-runpad_session' ? c.value === issued!.value : c.value}`);
    expect(names).toContain('__Host-runpad_session=true');

    // The victim is still their own guest: their conversation is there.
    await page.reload();
    const list = await page.evaluate(async () => (await (await fetch('/api/conversations')).json()) as { items: Array<{ id: string }> });
    expect(list.items.map((i) => i.id)).toContain(id);
  } finally {
    await browser.close();
    await proxy.close();
  }
});
