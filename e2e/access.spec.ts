import { expect, request as playwrightRequest, test, type APIRequestContext } from './test';

/** A guest: its own cookie jar, with the session cookie the app issues on the first page view. */
async function guest(baseURL: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL });
  expect((await context.get('/')).status()).toBe(200);
  return context;
}

async function createConversation(owner: APIRequestContext): Promise<string> {
  const id = crypto.randomUUID();
  const response = await owner.post('/api/chat', {
    data: { id, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'hello from the owner' }] } },
  });
  expect(response.status()).toBe(200);
  await response.body(); // the stream must finish so the answer is stored
  return id;
}

test.describe('another guest cannot reach a private conversation', () => {
  let owner: APIRequestContext;
  let stranger: APIRequestContext;
  let id: string;
  let title: string;

  test.beforeAll(async ({ baseURL }) => {
    owner = await guest(baseURL!);
    stranger = await guest(baseURL!);
    id = await createConversation(owner);
    // The title is generated after the answer (until then the list shows the question): wait for
    // it, so later checks compare a settled value.
    await expect
      .poll(async () => {
        const list = await (await owner.get('/api/conversations')).json();
        const item = list.items.find((i: { id: string }) => i.id === id) as { title: string; titled: boolean } | undefined;
        return item?.titled ? item.title : null;
      })
      .not.toBeNull();
    const list = await (await owner.get('/api/conversations')).json();
    title = list.items.find((i: { id: string }) => i.id === id).title;
  });
  test.afterAll(async () => {
    await owner.dispose();
    await stranger.dispose();
  });

  async function ownerStillHasIt() {
    const list = await (await owner.get('/api/conversations')).json();
    const item = list.items.find((i: { id: string }) => i.id === id);
    expect(item).toBeTruthy();
    expect(item.title).toBe(title);
    const page = await owner.get(`/c/${id}`);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain('hello from the owner');
  }

  test('the page is a 404', async () => {
    expect((await stranger.get(`/c/${id}`)).status()).toBe(404);
    await ownerStillHasIt();
  });

  test('the conversation list does not show it', async () => {
    const list = await (await stranger.get('/api/conversations')).json();
    expect(list.items.map((i: { id: string }) => i.id)).not.toContain(id);
  });

  test('posting to /api/chat for it is a 404', async () => {
    const response = await stranger.post('/api/chat', {
      data: { id, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'injected' }] } },
    });
    expect(response.status()).toBe(404);
    const page = await owner.get(`/c/${id}`);
    expect(await page.text()).not.toContain('injected');
  });

  test('renaming it is a 404', async () => {
    expect((await stranger.patch(`/api/conversations/${id}`, { data: { title: 'pwned' } })).status()).toBe(404);
    await ownerStillHasIt();
  });

  test('deleting it is a 404', async () => {
    expect((await stranger.delete(`/api/conversations/${id}`)).status()).toBe(404);
    await ownerStillHasIt();
  });

  test('sharing or revoking it is a 404', async () => {
    expect((await stranger.post(`/api/conversations/${id}/share`)).status()).toBe(404);
    expect((await stranger.delete(`/api/conversations/${id}/share`)).status()).toBe(404);
    await ownerStillHasIt();
  });
});

test.describe('bad input gets a clear 4xx', () => {
  test('malformed ids, unknown shares and blobs', async ({ baseURL }) => {
    const visitor = await guest(baseURL!);
    expect((await visitor.get('/c/not-a-uuid')).status()).toBe(404);
    expect((await visitor.get(`/s/${'A'.repeat(22)}`)).status()).toBe(404);
    expect((await visitor.get('/s/short')).status()).toBe(404);
    expect((await visitor.get(`/api/blobs/${'0'.repeat(64)}`)).status()).toBe(404);
    expect((await visitor.get('/api/blobs/xyz')).status()).toBe(404);
    expect((await visitor.patch(`/api/conversations/${crypto.randomUUID()}`, { data: { title: '' } })).status()).toBe(400);
    await visitor.dispose();
  });

  test('an invalid chat body is a 400 and an oversized one a 413', async ({ baseURL }) => {
    const visitor = await guest(baseURL!);
    const bad = await visitor.post('/api/chat', { data: { id: 'nope' } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error).toContain('Invalid request at id');
    const huge = await visitor.post('/api/chat', { data: { id: crypto.randomUUID(), pad: 'x'.repeat(9 * 1024 * 1024) } });
    expect(huge.status()).toBe(413);
    await visitor.dispose();
  });

  test('a tampered session cookie is refused and changes nothing', async ({ baseURL }) => {
    const owner = await guest(baseURL!);
    const id = await createConversation(owner);
    const state = await owner.storageState();
    const cookie = state.cookies.find((c) => c.name === 'runpad_session')!;
    const [version, userId, signature] = cookie.value.split('.');
    const forged = `${version}.${userId}.${signature.slice(0, -2)}xx`;
    const tampered = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { cookie: `runpad_session=${forged}` } });
    const response = await tampered.delete(`/api/conversations/${id}`);
    expect(response.status()).toBe(401);
    expect((await owner.get(`/c/${id}`)).status()).toBe(200);
    await tampered.dispose();
    await owner.dispose();
  });
});
