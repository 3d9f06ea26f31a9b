import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { expect, request as playwrightRequest, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type OidcProvider } from './fixtures/oidc-provider';
import { FAKE_MODEL } from './helpers';
import { e2ePort } from './ports';

/**
 * Accounts against a real OpenID Connect provider (oidc-provider on loopback) and Chromium's
 * virtual WebAuthn authenticator, on three app servers started here: `open` (guests and
 * accounts; admins; a small per-address guest limit), `accounts` (sign-in required; a daily
 * ceiling of 2 model requests for the whole instance) and `invite` (only @team.example).
 * Apps are reached at `localhost`: a passkey's relying party must be a domain, not an IP.
 */
test.describe.configure({ mode: 'serial' });

const OIDC_PORT = e2ePort(4020);
const OPEN = `http://localhost:${e2ePort(3194)}`;
const ACCOUNTS = `http://localhost:${e2ePort(3195)}`;
const INVITE = `http://localhost:${e2ePort(3196)}`;
const PERSON = 'person@example.com';
const ADMIN = 'admin@example.com';

const servers: ChildProcess[] = [];
let oidc: OidcProvider;
const contexts: BrowserContext[] = [];

function startApp(origin: string, env: Record<string, string>) {
  const port = new URL(origin).port;
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      AUTH_SECRET: 'accounts-secret-accounts-secret-0123456',
      RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `runpad-accounts-${port}-`)),
      OPENAI_BASE_URL: `${FAKE_MODEL}/v1`,
      OPENAI_API_KEY: 'test-key',
      RUNPAD_MODEL: 'fake-model',
      RUNPAD_OIDC_ISSUER: oidc.issuer,
      RUNPAD_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
      RUNPAD_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
      RUNPAD_OIDC_NAME: 'Test IdP',
      RUNPAD_LOG_LEVEL: 'error',
      ...env,
    },
  });
  servers.push(child);
}

test.beforeAll(async () => {
  // Three servers start at once; on a loaded machine their first migration takes a while.
  test.setTimeout(240_000);
  oidc = await startOidcProvider(OIDC_PORT, [OPEN, ACCOUNTS, INVITE]);
  startApp(OPEN, { RUNPAD_ADMIN_EMAILS: ADMIN, RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: '12' });
  startApp(ACCOUNTS, { RUNPAD_ACCESS: 'accounts', RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY: '2' });
  startApp(INVITE, { RUNPAD_ACCESS: 'invite', RUNPAD_ALLOWED_EMAILS: '@team.example' });
  for (const origin of [OPEN, ACCOUNTS, INVITE]) {
    await expect.poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status ?? 0, { timeout: 200_000 }).toBe(200);
  }
});

test.afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  for (const child of servers) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await oidc?.stop();
});

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

/** Signs in at the test provider's login page; lands on `next`. */
async function signInWithProvider(page: Page, origin: string, email: string, next = '/account') {
  await page.goto(`${origin}/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
  // The provider asks for a login unless this browser is still signed in there.
  await page.waitForURL((url) => url.pathname.startsWith('/interaction/') || (url.origin === origin && (url.pathname !== '/sign-in' || url.searchParams.has('error'))));
  if (new URL(page.url()).origin !== origin) {
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }
}

const chatBody = (id: string, text: string) => ({ id, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] } });

async function chat(page: Page, origin: string, id: string, text: string) {
  const response = await page.request.post(`${origin}/api/chat`, { data: chatBody(id, text) });
  await response.body();
  return response;
}

async function conversationIds(page: Page, origin: string): Promise<string[]> {
  const response = await page.request.get(`${origin}/api/conversations`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: Array<{ id: string }> }).items.map((item) => item.id);
}

const first = crypto.randomUUID();
const second = crypto.randomUUID();
let person: Page;

test('a guest keeps two conversations and a file on signing in; a second browser sees them; one device is signed out; a passkey signs back in; export holds it all', async ({ browser }) => {
  person = await newPage(browser);
  await person.goto(`${OPEN}/sign-in`);
  expect((await chat(person, OPEN, first, 'hello from a guest')).status()).toBe(200);
  const upload = await person.request.post(`${OPEN}/api/conversations/${second}/files`, { headers: { 'x-file-name': 'data.csv', 'content-type': 'text/csv' }, data: Buffer.from('a,b\n1,2\n') });
  expect(upload.status()).toBe(201);
  expect((await conversationIds(person, OPEN)).sort()).toEqual([first, second].sort());

  await signInWithProvider(person, OPEN, PERSON);
  await expect(person.getByTestId('account-email')).toContainText(`Signed in as ${PERSON}`);
  expect((await conversationIds(person, OPEN)).sort()).toEqual([first, second].sort());

  // The same account on a second browser: same work.
  const laptop = await newPage(browser);
  await signInWithProvider(laptop, OPEN, PERSON);
  await expect(laptop.getByTestId('account-email')).toContainText(PERSON);
  expect((await conversationIds(laptop, OPEN)).sort()).toEqual([first, second].sort());
  const files = await laptop.request.get(`${OPEN}/api/conversations/${second}/files`);
  expect(JSON.stringify(await files.json())).toContain('data.csv');

  // Sign the laptop out from the first browser.
  await person.reload();
  const devices = person.getByTestId('sessions').locator('li');
  await expect(devices).toHaveCount(2);
  await devices.filter({ hasNotText: 'this device' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(person.getByRole('status')).toHaveText('The device was signed out.');
  await expect(devices).toHaveCount(1);
  expect(await conversationIds(laptop, OPEN)).toEqual([]);
  await laptop.goto(`${OPEN}/account`);
  await expect(laptop).toHaveURL(/\/sign-in/);

  // A passkey, added on the account page and then used to sign in.
  const cdp = await person.context().newCDPSession(person);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await person.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(person.getByTestId('passkey-count')).toHaveText('1 passkey.');
  await person.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(person.getByText('You are signed out.')).toBeVisible();
  await person.goto(`${OPEN}/sign-in?next=/account`);
  await person.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(person.getByTestId('account-email')).toContainText(PERSON);
  expect((await conversationIds(person, OPEN)).sort()).toEqual([first, second].sort());

  // Export: a notebook per conversation, the file beside its notebook.
  const archive = await person.request.get(`${OPEN}/api/account/export`);
  expect(archive.headers()['content-type']).toBe('application/zip');
  const entries = unzipSync(new Uint8Array(await archive.body()));
  const names = Object.keys(entries);
  expect(names.filter((name) => name.endsWith('.ipynb'))).toHaveLength(2);
  const notebook = names.find((name) => name.includes(first.slice(0, 8)) && name.endsWith('.ipynb'))!;
  expect(JSON.parse(strFromU8(entries[notebook])).nbformat).toBe(4);
  expect(strFromU8(entries[notebook])).toContain('hello from a guest');
  const csv = names.find((name) => name.includes(second.slice(0, 8)) && name.endsWith('/files/data.csv'))!;
  expect(strFromU8(entries[csv])).toBe('a,b\n1,2\n');
});

test('an admin sees usage, blocks a person (refused in words), sets their limit; the person deletes their account', async ({ browser }) => {
  const admin = await newPage(browser);
  await signInWithProvider(admin, OPEN, ADMIN, '/admin');
  await expect(admin.getByRole('heading', { name: 'People' })).toBeVisible();
  const row = admin.locator(`tr[data-person="${PERSON}"]`);
  await expect(row.locator('td').nth(1)).toHaveText('1'); // the guest's model request came along
  await row.getByRole('button', { name: 'Block' }).click();
  await expect(row).toContainText('blocked');
  const refused = await chat(person, OPEN, crypto.randomUUID(), 'am I blocked?');
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toBe('You are blocked from using this Runpad. Contact its operator.');

  // Unblocked with one model request a day for this person only.
  await row.getByRole('textbox', { name: `Requests a day for ${PERSON}` }).fill('1');
  await row.getByRole('button', { name: 'Save limits' }).click();
  await expect(admin.getByRole('status')).toHaveText(`Limits saved for ${PERSON}.`);
  await row.getByRole('button', { name: 'Unblock' }).click();
  await expect(row).not.toContainText('blocked');
  expect((await chat(person, OPEN, crypto.randomUUID(), 'one')).status()).toBe(200);
  const limited = await chat(person, OPEN, crypto.randomUUID(), 'two');
  expect(limited.status()).toBe(429);
  expect((await limited.json()).error).toMatch(/^You have reached the daily number of requests to the model\. Try again in/);

  // Deletion: the account and its work are gone; signing in again starts empty.
  await person.goto(`${OPEN}/account`);
  person.once('dialog', (dialog) => void dialog.accept());
  await person.getByRole('button', { name: 'Delete account' }).click();
  await expect(person.getByText('Your account and everything in it were deleted.')).toBeVisible();
  await admin.reload();
  await expect(admin.locator(`tr[data-person="${PERSON}"]`)).toHaveCount(0);
  await signInWithProvider(person, OPEN, PERSON);
  await expect(person.getByTestId('account-email')).toContainText(PERSON);
  expect(await conversationIds(person, OPEN)).toEqual([]);
});

test('guests minted in a loop from one address hit the per-address limit; an existing guest carries on', async () => {
  const existing = await playwrightRequest.newContext({ baseURL: OPEN });
  await existing.get('/sign-in');
  expect((await existing.get('/api/conversations')).status()).toBe(200);
  const statuses: number[] = [];
  let message = '';
  for (let i = 0; i < 13; i += 1) {
    const minted = await playwrightRequest.newContext({ baseURL: OPEN });
    await minted.get('/sign-in');
    const response = await minted.get('/api/conversations');
    statuses.push(response.status());
    if (response.status() === 429) message = (await response.json()).error;
    await minted.dispose();
  }
  expect(statuses).toContain(429);
  expect(statuses.slice(statuses.indexOf(429)).every((status) => status === 429)).toBe(true);
  expect(message).toMatch(/^Too many new guest sessions have started from your network\. Try again in \d+ minutes\.$/);
  expect((await existing.get('/api/conversations')).status()).toBe(200);
  await existing.dispose();
});

test('accounts mode sends a guest to sign in, keeps share links readable, and stops at the instance ceiling', async ({ browser }) => {
  const visitor = await newPage(browser);
  await visitor.goto(`${ACCOUNTS}/`);
  await expect(visitor).toHaveURL(`${ACCOUNTS}/sign-in?next=%2F`);
  const refused = await visitor.request.get(`${ACCOUNTS}/api/conversations`);
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error).toBe('Sign in to use this Runpad.');

  const member = await newPage(browser);
  await signInWithProvider(member, ACCOUNTS, 'member@example.com');
  await expect(member.getByTestId('account-email')).toContainText('member@example.com');
  const id = crypto.randomUUID();
  expect((await chat(member, ACCOUNTS, id, 'a shared question')).status()).toBe(200);
  const share = (await (await member.request.post(`${ACCOUNTS}/api/conversations/${id}/share`)).json()) as { path: string };
  await visitor.goto(`${ACCOUNTS}${share.path}`);
  await expect(visitor).toHaveURL(`${ACCOUNTS}${share.path}`);
  await expect(visitor.getByText('a shared question', { exact: true })).toBeVisible();

  expect((await chat(member, ACCOUNTS, crypto.randomUUID(), 'second')).status()).toBe(200);
  const ceiling = await chat(member, ACCOUNTS, crypto.randomUUID(), 'third');
  expect(ceiling.status()).toBe(429);
  expect((await ceiling.json()).error).toMatch(/^This Runpad has reached its daily number of requests to the model for everyone\. Try again in/);
});

test('invite mode refuses an email not on the list and lets an invited one in', async ({ browser }) => {
  const outsider = await newPage(browser);
  await signInWithProvider(outsider, INVITE, 'outsider@example.com');
  await expect(outsider).toHaveURL(/\/sign-in\?.*error=/);
  await expect(outsider.getByRole('alert')).toHaveText('This email is not invited to this Runpad. Ask its operator to add you.');
  expect((await outsider.request.get(`${INVITE}/api/conversations`)).status()).toBe(401);

  const insider = await newPage(browser);
  await signInWithProvider(insider, INVITE, 'someone@team.example');
  await expect(insider.getByTestId('account-email')).toContainText('someone@team.example');
});
