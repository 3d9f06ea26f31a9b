import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import postgres from 'postgres';
import { chromium, request as playwrightRequest, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expect, patience } from './test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './browser';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type OidcProvider } from './fixtures/oidc-provider';
import { startTlsProxy } from './fixtures/tls-proxy.mjs';
import { FAKE_MODEL } from './helpers';
import { e2ePort } from './ports';

/**
 * Accounts against a real OpenID Connect provider (oidc-provider on loopback) and Chromium's
 * virtual WebAuthn authenticator, on four app servers started here, each with its one public
 * origin (RUNPAD_PUBLIC_ORIGIN): `open` (guests and accounts; admins; a small per-address guest
 * limit), `secure` (open, reached over HTTPS through a TLS proxy), `accounts` (sign-in required;
 * a daily ceiling of 2 model requests for the whole instance) and `invite` (only @team.example,
 * invited or approved people; local accounts with passwords beside the provider). Each stores on
 * the machine's Postgres server, in a database of its own, when one answers, else on PGlite (whose
 * cluster and every query in WebAssembly cost each server seconds of CPU; the suite is CPU-bound).
 * Apps are reached at `localhost`: a passkey's relying party must be a domain, not an IP.
 */
test.describe.configure({ mode: 'serial' });

const OIDC_PORT = e2ePort(4020);
const OPEN = `http://localhost:${e2ePort(3194)}`;
const ACCOUNTS = `http://localhost:${e2ePort(3195)}`;
const INVITE = `http://localhost:${e2ePort(3196)}`;
/** The server behind the TLS proxy (its public origin is the proxy's HTTPS one). */
const SECURE_PORT = e2ePort(3197);
const PERSON = 'person@example.com';
const ADMIN = 'admin@example.com';
/** The invite server's admin (signs in with the provider); the rest of its people use passwords. */
const LEAD = 'lead@team.example';
const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUN_ID = Math.random().toString(36).slice(2, 10);
/** The four servers, each with its database on the machine's Postgres server. */
const SERVER_NAMES = ['open', 'secure', 'accounts', 'invite'] as const;
type ServerName = (typeof SERVER_NAMES)[number];
const databaseOf = (server: ServerName) => `runpad_e2e_accounts_${server}_${RUN_ID}`;

const servers: ChildProcess[] = [];
let oidc: OidcProvider;
let tls: Awaited<ReturnType<typeof startTlsProxy>>;
/** An open server's HTTPS origin (the TLS proxy; the browser maps *.runpad.test to loopback). */
let SECURE_OPEN = '';
/** Each server's database URL; none (then why) when no Postgres server answered. */
const databaseUrls = new Map<ServerName, string>();
/** The open server's database URL, or null (then why) when no Postgres server answered. */
let openDatabaseUrl: string | null = null;
let noPostgres: string | null = null;
const contexts: BrowserContext[] = [];

/** A sibling subdomain's page: plants the session token in its hash for the whole site, as both names. */
const ATTACKER_PAGE = `<!doctype html><title>evil</title><script>
  const token = location.hash.slice(1);
  document.cookie = "__Host-runpad.session_token=" + token + "; Secure; Path=/; Domain=runpad.test";
  document.cookie = "runpad.session_token=" + token + "; Secure; Path=/; Domain=runpad.test";
  document.title = "planted";
</script>`;

async function createServerDatabases(): Promise<void> {
  const admin = postgres(POSTGRES_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    for (const server of SERVER_NAMES) {
      await admin.unsafe(`create database ${databaseOf(server)}`);
      databaseUrls.set(server, Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${databaseOf(server)}` }).href);
    }
    openDatabaseUrl = databaseUrls.get('open') ?? null;
  } catch (error) {
    noPostgres = `no Postgres server at ${new URL(POSTGRES_ADMIN_URL).host} (${(error as Error).message})`;
  } finally {
    await admin.end();
  }
}

/** An app server on `port`, its one public origin `origin` (the links it writes, the provider's return address). */
function startApp(server: ServerName, origin: string, env: Record<string, string>, port = new URL(origin).port) {
  const databaseUrl = databaseUrls.get(server);
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
      RUNPAD_PUBLIC_ORIGIN: origin,
      RUNPAD_LOG_LEVEL: 'error',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  });
  servers.push(child);
}

test.beforeAll(async () => {
  // Four servers start at once; on a loaded machine their first migration takes a while.
  test.setTimeout(patience(240_000));
  await createServerDatabases();
  if (noPostgres) console.warn(`[accounts] the servers run on PGlite; the open server's Postgres pass is skipped: ${noPostgres}`);
  tls = await startTlsProxy({ appPort: SECURE_PORT, attackerPage: ATTACKER_PAGE });
  SECURE_OPEN = `https://app.runpad.test:${tls.port}`;
  oidc = await startOidcProvider(OIDC_PORT, [OPEN, ACCOUNTS, INVITE, SECURE_OPEN]);
  startApp('open', OPEN, {
    RUNPAD_ADMIN_EMAILS: ADMIN,
    RUNPAD_OIDC_GROUPS_CLAIM: 'groups',
    // Priced, for the admin page's usage: the fake model reports 10 input and 10 output tokens a call.
    RUNPAD_MODELS: JSON.stringify([{ id: 'fake', provider: 'openai-compatible', model: 'fake-model', label: 'Fake model', baseURL: `${FAKE_MODEL}/v1`, price: { input: 2, output: 8 } }]),
    RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: '12',
  });
  // Open too, reached only through the TLS proxy, which says https in X-Forwarded-Proto.
  startApp('secure', SECURE_OPEN, { RUNPAD_TRUST_PROXY: '1' }, String(SECURE_PORT));
  startApp('accounts', ACCOUNTS, { RUNPAD_ACCESS: 'accounts', RUNPAD_INSTANCE_MODEL_REQUESTS_PER_DAY: '2' });
  startApp('invite', INVITE, { RUNPAD_ACCESS: 'invite', RUNPAD_ALLOWED_EMAILS: '@team.example', RUNPAD_ADMIN_EMAILS: LEAD });
  for (const origin of [OPEN, ACCOUNTS, INVITE, `http://localhost:${SECURE_PORT}`]) {
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
  await tls?.close();
  if (databaseUrls.size > 0) {
    const admin = postgres(POSTGRES_ADMIN_URL, { max: 1, onnotice: () => undefined });
    for (const server of databaseUrls.keys()) await admin.unsafe(`drop database if exists ${databaseOf(server)} with (force)`);
    await admin.end();
  }
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

/** Looks into the open server's Postgres database; without one, says in the report why not. */
async function expectOnServerDatabase(check: (sql: postgres.Sql) => Promise<void>) {
  if (!openDatabaseUrl) {
    test.info().annotations.push({ type: 'skipped', description: `the Postgres pass: ${noPostgres}` });
    return;
  }
  const sql = postgres(openDatabaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await check(sql);
  } finally {
    await sql.end();
  }
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
  await expectOnServerDatabase(async (sql) => {
    // The merge and both devices' sessions are rows of the server database.
    const owners = await sql<Array<{ email: string }>>`select distinct u.email from conversations c join auth_users u on u.id = c.owner_id where c.id in ${sql([first, second])}`;
    expect(owners.map((row) => row.email)).toEqual([PERSON]);
    const [{ count }] = await sql<Array<{ count: number }>>`select count(*)::int as count from auth_sessions s join auth_users u on u.id = s.user_id where u.email = ${PERSON}`;
    expect(count).toBe(2);
  });

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
  // The page's own words first: a refusal there says why (a count that stays at none does not).
  await expect(person.getByRole('status')).toHaveText('Passkey added: you can now sign in with it.');
  await expect(person.getByTestId('passkey-count')).toHaveText('1 passkey.');
  await person.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(person.getByText('You are signed out.')).toBeVisible();
  // Through a link whose `next` a browser reads as another host (`/\evil.example/…`): the person
  // lands on this app's home page, not on the other origin.
  await person.goto(`${OPEN}/sign-in?next=%2F%5Cevil.example%2Fstolen`);
  await person.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await person.waitForURL((url) => url.pathname !== '/sign-in');
  expect(new URL(person.url()).origin).toBe(OPEN);
  expect(new URL(person.url()).pathname).toBe('/');
  await person.goto(`${OPEN}/account`);
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
  const csv = names.find((name) => name.includes(second.slice(0, 8)) && name.endsWith('/data/data.csv'))!;
  expect(strFromU8(entries[csv])).toBe('a,b\n1,2\n');
});

/** A request from the page itself: only the browser resolves *.runpad.test (--host-resolver-rules). */
async function inPage(page: Page, url: string, body?: unknown): Promise<{ status: number; text: string }> {
  return page.evaluate(
    async ([target, json]) => {
      const init = json === undefined ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: json };
      const response = await fetch(target, init);
      return { status: response.status, text: await response.text() };
    },
    [url, body === undefined ? undefined : JSON.stringify(body)] as const,
  );
}

async function conversationIdsInPage(page: Page): Promise<string[]> {
  const listed = await inPage(page, '/api/conversations');
  expect(listed.status).toBe(200);
  return (JSON.parse(listed.text) as { items: Array<{ id: string }> }).items.map((item) => item.id);
}

test('over HTTPS every account cookie is __Host-, a sibling subdomain cannot plant a session, and signing in rotates what the browser held', async () => {
  const tlsBrowser = await chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.runpad.test 127.0.0.1'],
  });
  const appCookies = async (context: BrowserContext) => (await context.cookies(SECURE_OPEN)).filter((cookie) => cookie.domain === 'app.runpad.test');
  const named = (cookies: Awaited<ReturnType<typeof appCookies>>, name: string) => cookies.find((cookie) => cookie.name === name)!;
  try {
    // Someone with an account of their own, who would like this browser to use it.
    const attacker = await tlsBrowser.newContext({ ignoreHTTPSErrors: true });
    const attackerPage = await attacker.newPage();
    await signInWithProvider(attackerPage, SECURE_OPEN, 'attacker@example.com');
    await expect(attackerPage.getByTestId('account-email')).toContainText('attacker@example.com');
    const attackerToken = named(await appCookies(attacker), '__Host-runpad.session_token').value;

    const context = await tlsBrowser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`${SECURE_OPEN}/sign-in`);
    const guestBefore = named(await appCookies(context), '__Host-runpad_session');
    const id = crypto.randomUUID();
    expect((await inPage(page, '/api/chat', chatBody(id, 'mine, over https'))).status).toBe(200);

    // A page on a sibling subdomain plants the attacker's session for the whole site: the
    // browser refuses the __Host- one, and the app does not read the other name over HTTPS.
    const evil = await context.newPage();
    await evil.goto(`https://evil.runpad.test:${tls.port}/#${attackerToken}`);
    await expect(evil).toHaveTitle('planted');
    await evil.close();
    expect((await context.cookies(SECURE_OPEN)).map((cookie) => `${cookie.domain} ${cookie.name}`).sort()).toEqual(['.runpad.test runpad.session_token', 'app.runpad.test __Host-runpad_session']);
    expect(await conversationIdsInPage(page)).toEqual([id]);

    await signInWithProvider(page, SECURE_OPEN, 'secure@example.com');
    await expect(page.getByTestId('account-email')).toContainText('Signed in as secure@example.com');
    const issued = await appCookies(context);
    for (const cookie of issued) expect(cookie).toMatchObject({ name: expect.stringMatching(/^__Host-runpad/), secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    const session = named(issued, '__Host-runpad.session_token');
    expect(named(issued, '__Host-runpad_session').value).not.toBe(guestBefore.value);
    expect(await conversationIdsInPage(page)).toEqual([id]);

    // Signing in again from this browser (the provider remembers the person) makes a new session and ends the one before.
    const again = JSON.parse((await inPage(page, '/api/auth/sign-in/social', { provider: 'oidc', callbackURL: '/account' })).text) as { url: string };
    await page.goto(again.url);
    await expect(page.getByTestId('account-email')).toContainText('Signed in as secure@example.com');
    expect(named(await appCookies(context), '__Host-runpad.session_token').value).not.toBe(session.value);

    // What the browser held before each sign-in speaks for no account: not the ended session, not the guest cookie.
    const stale = await tlsBrowser.newContext({ ignoreHTTPSErrors: true });
    const probe = await stale.newPage();
    await probe.goto(`${SECURE_OPEN}/api/health`);
    const replay = (cookie: typeof session) => stale.addCookies([{ name: cookie.name, value: cookie.value, url: SECURE_OPEN, secure: true, httpOnly: true, sameSite: 'Lax' }]);
    await replay(session);
    expect((await inPage(probe, '/api/conversations')).status).toBe(401);
    await stale.clearCookies();
    await replay(guestBefore);
    expect(await conversationIdsInPage(probe)).toEqual([]);
  } finally {
    await tlsBrowser.close();
  }
});

test('an admin sees usage, tokens and cost (and their CSV), blocks a person (refused in words), sets their limits and token budget; the person deletes their account', async ({ browser }) => {
  const admin = await newPage(browser);
  await signInWithProvider(admin, OPEN, ADMIN, '/admin');
  await expect(admin.getByRole('heading', { name: 'People' })).toBeVisible();
  const row = admin.locator(`tr[data-person="${PERSON}"]`);
  await expect(row.locator('td').nth(1)).toHaveText('1'); // the guest's model request came along

  // Its tokens too, as the fake model reported them: the answer's and the title's, at $2 and $8 a million.
  const used = admin.getByRole('table', { name: 'By person' }).locator(`tr[data-usage-row="${PERSON}"] td`);
  await expect(used).toHaveText([PERSON, '1', '20', '20', '$0.0002']);
  await expect(admin.getByRole('table', { name: 'By model' }).locator('tr[data-usage-row="Fake model"] td').first()).toHaveText('Fake model$2.00 / $8.00 per million tokens');
  await admin.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(admin.getByTestId('usage')).toHaveAttribute('data-period', '7d');
  await expect(used).toHaveText([PERSON, '1', '20', '20', '$0.0002']);
  const download = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Download CSV' }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('period_start,period_end,person,person_id,model,model_id,requests,input_tokens,output_tokens,cost_usd,unpriced_tokens');
  expect(csv).toMatch(new RegExp(`,${PERSON},[0-9a-f-]{36},Fake model,fake,1,20,20,0\\.000200,0\r\n`));
  await row.getByRole('button', { name: 'Block' }).click();
  await expect(row).toContainText('blocked');
  const refused = await chat(person, OPEN, crypto.randomUUID(), 'am I blocked?');
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toBe('You are blocked from using this Runpad. Contact its operator.');

  // Unblocked with one model request a day for this person only.
  await row.getByRole('textbox', { name: `Requests a day for ${PERSON}` }).fill('1');
  await row.getByRole('button', { name: 'Save limits' }).click();
  // /admin has a status line per section (the Groups section's own too): the one that says something.
  await expect(admin.getByRole('status').filter({ hasText: /\S/ })).toHaveText(`Limits saved for ${PERSON}.`);
  await row.getByRole('button', { name: 'Unblock' }).click();
  await expect(row).not.toContainText('blocked');
  expect((await chat(person, OPEN, crypto.randomUUID(), 'one')).status()).toBe(200);
  const limited = await chat(person, OPEN, crypto.randomUUID(), 'two');
  expect(limited.status()).toBe(429);
  expect((await limited.json()).error).toMatch(/^You have reached the daily number of requests to the model\. Try again in/);

  // Back to the default number of requests, with a budget of one token a day: already spent.
  await row.getByRole('textbox', { name: `Requests a day for ${PERSON}` }).fill('');
  await row.getByRole('textbox', { name: `Tokens a day for ${PERSON}` }).fill('1');
  await row.getByRole('button', { name: 'Save limits' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /\S/ })).toHaveText(`Limits saved for ${PERSON}.`);
  const overBudget = await chat(person, OPEN, crypto.randomUUID(), 'three');
  expect(overBudget.status()).toBe(429);
  expect(await overBudget.json()).toMatchObject({ code: 'rate_limit:exceeded', error: expect.stringMatching(/^You have reached the daily number of tokens for the model\. Try again in \d+ hours\.$/) });

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

const PENDING = 'Your account is waiting for an admin of this Runpad to approve it. You can sign in once they have.';

test('invite mode keeps an email not on the list waiting for approval and lets an invited one in', async ({ browser }) => {
  const outsider = await newPage(browser);
  await signInWithProvider(outsider, INVITE, 'outsider@example.com');
  await expect(outsider).toHaveURL(/\/sign-in\?.*error=/);
  // (Next adds a route announcer, also role=alert: the message is found by its words.)
  await expect(outsider.getByRole('alert').filter({ hasText: 'waiting' })).toHaveText(PENDING);
  expect((await outsider.request.get(`${INVITE}/api/conversations`)).status()).toBe(401);

  const insider = await newPage(browser);
  await signInWithProvider(insider, INVITE, 'someone@team.example');
  await expect(insider.getByTestId('account-email')).toContainText('someone@team.example');
});

/** Fills the sign-in page's email-and-password form and submits it. */
async function passwordForm(page: Page, fields: { name?: string; email?: string; password: string }, submit: 'Sign in' | 'Create account') {
  if (fields.name !== undefined) await page.getByLabel('Name').fill(fields.name);
  if (fields.email !== undefined) await page.getByLabel('Email', { exact: true }).fill(fields.email);
  await page.getByLabel('Password', { exact: true }).fill(fields.password);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

/** The link the admin page shows to hand over, once the one titled `title` is shown. */
async function shownLink(page: Page, title: string): Promise<string> {
  await expect(page.getByRole('region', { name: 'Link to hand over' })).toContainText(title);
  return page.getByTestId('shown-link').inputValue();
}

test('local accounts: a sign-up waits for approval, an invitation link makes an account once, a role makes an admin, a reset link sets a password', async ({ browser }) => {
  // Someone not invited makes an account with a password: kept, waiting, told so.
  const walkIn = await newPage(browser);
  await walkIn.goto(`${INVITE}/sign-in`);
  await walkIn.getByRole('button', { name: 'Create an account' }).click();
  await passwordForm(walkIn, { name: 'Walk In', email: 'walk-in@example.com', password: 'walk-in password 1' }, 'Create account');
  await expect(walkIn.getByRole('alert').filter({ hasText: 'waiting' })).toHaveText(PENDING);

  // The admin approves them on /admin and invites someone else.
  const lead = await newPage(browser);
  await signInWithProvider(lead, INVITE, LEAD, '/admin');
  await expect(lead.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
  await expect(lead.locator('li[data-pending="walk-in@example.com"]')).toContainText('email not verified');
  await lead.locator('li[data-pending="walk-in@example.com"]').getByRole('button', { name: 'Approve' }).click();
  await expect(lead.getByRole('status').filter({ hasText: /\S/ })).toHaveText('walk-in@example.com was approved and can sign in.');
  await expect(lead.locator('tr[data-account="walk-in@example.com"]')).toBeVisible();
  // On a slow connection the sign-in form is shown before its scripts run: Enter then must not
  // submit it the browser's way, which would put the password in the URL (and the server's logs).
  const lateScripts = /\/_next\/static\/chunks\//;
  await walkIn.route(lateScripts, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await walkIn.goto(`${INVITE}/sign-in?next=/account`, { waitUntil: 'commit' });
  await walkIn.getByLabel('Email', { exact: true }).fill('walk-in@example.com');
  await walkIn.getByLabel('Password', { exact: true }).fill('walk-in password 1');
  await walkIn.getByLabel('Password', { exact: true }).press('Enter');
  await expect(walkIn.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  expect(walkIn.url()).not.toContain('walk-in');
  await walkIn.unroute(lateScripts);
  await passwordForm(walkIn, { email: 'walk-in@example.com', password: 'walk-in password 1' }, 'Sign in');
  await expect(walkIn.getByTestId('account-email')).toContainText('walk-in@example.com');

  await lead.getByLabel('Email to invite').fill('guest.star@example.com');
  await lead.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = await shownLink(lead, 'Invitation for guest.star@example.com');
  expect(link).toMatch(new RegExp(`^${INVITE}/sign-in\\?invitation=`));
  await expect(lead.locator('li[data-invitation="guest.star@example.com"]')).toBeVisible();

  // Someone else cannot take the invited email without the link: the sign-up is refused in words.
  const squatter = await newPage(browser);
  await squatter.goto(`${INVITE}/sign-in`);
  await squatter.getByRole('button', { name: 'Create an account' }).click();
  await passwordForm(squatter, { name: 'Squatter', email: 'Guest.Star@example.com', password: 'squatter password 1' }, 'Create account');
  await expect(squatter.getByRole('alert').filter({ hasText: 'invitation' })).toHaveText('An invitation is waiting for this email: make the account with the link it came with.');

  // The invited person follows the link, makes an account, then adds a passkey to it.
  const invited = await newPage(browser);
  await invited.goto(`${link}&next=/account`);
  await expect(invited.getByTestId('invitation')).toHaveText('You are invited as guest.star@example.com. Choose your name and a password.');
  await passwordForm(invited, { name: 'Guest Star', password: 'guest star password' }, 'Create account');
  await expect(invited.getByTestId('account-email')).toHaveText('Signed in as guest.star@example.com');
  const cdp = await invited.context().newCDPSession(invited);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await invited.getByRole('button', { name: 'Add a passkey' }).click();
  // The page's own words first: a refusal there says why (a count that stays at none does not).
  await expect(invited.getByRole('status')).toHaveText('Passkey added: you can now sign in with it.');
  await expect(invited.getByTestId('passkey-count')).toHaveText('1 passkey.');
  // The link worked once.
  const late = await newPage(browser);
  await late.goto(link);
  await expect(late.getByRole('alert').filter({ hasText: 'invitation' })).toContainText('This invitation link does not work any more');

  // A role makes them an admin; the invitation is no longer open.
  await lead.reload();
  await expect(lead.locator('li[data-invitation="guest.star@example.com"]')).toHaveCount(0);
  await lead.locator('tr[data-account="guest.star@example.com"]').getByRole('button', { name: 'Make admin' }).click();
  await expect(lead.getByRole('status').filter({ hasText: /\S/ })).toHaveText('guest.star@example.com is now an admin.');
  await invited.goto(`${INVITE}/admin`);
  await expect(invited.getByRole('heading', { name: 'People' })).toBeVisible();

  // A password link for the walk-in: it sets a new password once, and signs them out.
  await lead.locator('tr[data-account="walk-in@example.com"]').getByRole('button', { name: 'Password link' }).click();
  const resetLink = await shownLink(lead, 'Link that sets a password for walk-in@example.com');
  expect(new URL(resetLink).pathname).toBe('/reset-password');
  const resetter = await newPage(browser);
  await resetter.goto(resetLink);
  await resetter.getByLabel('New password').fill('walk-in password 2');
  await resetter.getByRole('button', { name: 'Set password' }).click();
  await expect(resetter.getByRole('status')).toContainText('Your password is set');
  expect((await walkIn.request.get(`${INVITE}/api/conversations`)).status()).toBe(401);
  await resetter.goto(`${INVITE}/sign-in?next=/account`);
  await passwordForm(resetter, { email: 'walk-in@example.com', password: 'walk-in password 2' }, 'Sign in');
  await expect(resetter.getByTestId('account-email')).toContainText('walk-in@example.com');

  // Without a mail server no password link is offered for another admin's account; every action is in the audit list.
  await lead.reload();
  await expect(lead.locator('tr[data-account="guest.star@example.com"]').getByRole('button', { name: 'Password link' })).toHaveCount(0);
  for (const action of ['approved walk-in@example.com', 'invited guest.star@example.com', 'made admin guest.star@example.com', 'showed a password link for walk-in@example.com']) {
    await expect(lead.locator(`tr[data-action="${LEAD} ${action}"]`)).toHaveCount(1);
  }

  // A revoked invitation's link does not work.
  await lead.getByLabel('Email to invite').fill('never@example.com');
  await lead.getByRole('button', { name: 'Invite', exact: true }).click();
  const revokedLink = await shownLink(lead, 'Invitation for never@example.com');
  await lead.locator('li[data-invitation="never@example.com"]').getByRole('button', { name: 'Revoke' }).click();
  await expect(lead.getByRole('status').filter({ hasText: /\S/ })).toHaveText('The invitation for never@example.com was revoked.');
  await late.goto(revokedLink);
  await expect(late.getByRole('alert').filter({ hasText: 'invitation' })).toContainText('This invitation link does not work any more');
});

test('the provider’s groups claim keeps an account’s groups in step at each sign-in; an admin edits groups on /admin; Share offers groups and a link for signed-in people only, which sends a visitor to sign in and back', async ({ browser }) => {
  const MEMBER = 'team.member@example.com';
  const DATA = 'Équipe "données" ‘α’';
  const SALES = 'Ventes «Q3» 数据';
  // What the provider claims, with a value that is not a name (left out).
  oidc.groups.set(MEMBER, [DATA, SALES, 'two\nlines']);
  const member = await newPage(browser);
  await signInWithProvider(member, OPEN, MEMBER);
  await expect(member.getByTestId('account-email')).toContainText(MEMBER);

  const admin = await newPage(browser);
  await signInWithProvider(admin, OPEN, ADMIN);
  await expect(admin.getByTestId('account-email')).toContainText(ADMIN);
  const talk = crypto.randomUUID();
  expect((await chat(admin, OPEN, talk, 'For the team')).status()).toBe(200);
  const groupsNow = async () => JSON.parse((await inPage(admin, '/api/admin/groups')).text) as { groups: Array<{ id: string; name: string; members: Array<{ email: string; source: string }> }> };
  const groupOf = async (name: string) => (await groupsNow()).groups.find((group) => group.name === name);
  expect((await groupOf(DATA))?.members).toEqual([{ userId: expect.any(String), email: MEMBER, source: 'oidc' }]);
  expect((await groupOf(SALES))?.members.map((m) => m.email)).toEqual([MEMBER]);
  expect((await groupsNow()).groups.some((group) => group.name.includes('lines'))).toBe(false);

  // Share offers the groups: the admin shares the conversation with one, in the panel.
  await admin.goto(`${OPEN}/c/${talk}`);
  await admin.getByRole('button', { name: 'Share', exact: true }).click();
  const panel = admin.getByRole('group', { name: 'Share' });
  await panel.getByLabel('or a group').selectOption({ label: DATA });
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel.getByRole('status').filter({ hasText: `Shared with the group ${DATA}.` })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'Readers' })).toContainText(`Group: ${DATA}`);
  expect((await inPage(member, `/api/conversations/${talk}`)).status).toBe(200);

  // A link for signed-in people only: chosen with the keyboard, said in words.
  await panel.getByRole('radio', { name: 'Signed-in people of this Runpad only' }).click();
  await expect(panel).toContainText('People signed in to this Runpad who have the link');
  await expect(panel.getByRole('radio', { name: 'Signed-in people of this Runpad only' })).toBeChecked();
  const link = await panel.getByLabel('Share link').inputValue();
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.screenshot({ path: test.info().outputPath('share-audience-390.png') });
  await admin.setViewportSize({ width: 1280, height: 800 });
  await admin.screenshot({ path: test.info().outputPath('share-audience-1280.png') });

  // No one signed in is sent to sign in, and back to the link after.
  const visitor = await newPage(browser);
  await visitor.goto(link);
  await expect(visitor).toHaveURL(/\/sign-in\?next=%2Fs%2F/);
  await visitor.getByRole('button', { name: 'Sign in with Test IdP' }).click();
  await visitor.locator('input[name="login"]').fill('visitor@example.com');
  await visitor.locator('input[name="password"]').fill('any password');
  await visitor.getByRole('button', { name: 'Sign-in' }).click();
  await expect(visitor).toHaveURL(link);
  await expect(visitor.getByRole('button', { name: 'Continue in my own chat' })).toBeVisible();

  // The provider names other groups: at the next sign-in, the account is in exactly those.
  // (A signed-in browser is not shown the sign-in page: the next sign-in is another browser's.)
  oidc.groups.set(MEMBER, [SALES, 'новая группа']);
  const memberAgain = await newPage(browser);
  await signInWithProvider(memberAgain, OPEN, MEMBER);
  await expect(memberAgain.getByTestId('account-email')).toContainText(MEMBER);
  expect((await groupOf(DATA))?.members).toEqual([]);
  expect((await groupOf('новая группа'))?.members.map((m) => m.email)).toEqual([MEMBER]);
  // What the group gave ends with it.
  expect((await inPage(member, `/api/conversations/${talk}`)).status).toBe(404);

  // The admin makes a group, renames it, and takes a member out, on /admin.
  await admin.goto(`${OPEN}/admin`);
  const groups = admin.getByRole('region', { name: 'Groups' });
  await groups.getByLabel('New group’s name').fill(`  O'Brien “quotes” 'single'  `);
  await groups.getByLabel('Members’ emails (one a line, or commas)').fill(`${MEMBER}\n${ADMIN}`);
  await groups.getByRole('button', { name: 'Make group' }).click();
  await expect(groups.getByRole('status')).toHaveText(`The group O'Brien “quotes” 'single' was made.`);
  await expect(groups.getByRole('heading', { name: `O'Brien “quotes” 'single'` })).toBeVisible();
  await groups.getByRole('button', { name: `Remove ${MEMBER} from ${SALES}` }).click();
  await expect(groups.getByRole('status')).toHaveText(`${MEMBER} was taken out of ${SALES}.`);
  await expect(groups.getByRole('list', { name: `Members of ${SALES}` })).toHaveCount(0);
  await groups.getByLabel(`Name of the group новая группа`).fill('Nouvelle équipe');
  await groups.getByLabel(`Name of the group новая группа`).press('Enter');
  await expect(groups.getByRole('heading', { name: 'Nouvelle équipe' })).toBeVisible();
  await admin.screenshot({ path: test.info().outputPath('admin-groups-1280.png'), fullPage: true });
  await admin.setViewportSize({ width: 390, height: 844 });
  await groups.scrollIntoViewIfNeeded();
  await admin.screenshot({ path: test.info().outputPath('admin-groups-390.png') });
});

