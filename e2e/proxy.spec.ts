import https from 'node:https';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from './test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './browser';
import { nginxUnavailable, startNginx } from './fixtures/nginx.mjs';
import { addScenarios, chatRequestsFor, releaseHeld, send, waitForHydration } from './helpers';
import { e2ePort } from './ports';
import { skipOutsideCi } from '../lib/testing/required';
import { MAIN_APP_PORT, METRICS_TOKEN, STRICT_APP_PORT } from '../playwright.config';

/**
 * Runpad behind Debian's nginx running the repository's site configuration
 * (deploy/nginx/runpad.conf, e2e/fixtures/nginx.mjs), in front of two of the suite's servers: the
 * strict one (RUNPAD_TRUST_PROXY=1, metrics on), reached by the browser over HTTPS, and the main
 * one (no trusted proxy). Streamed answers arrive while the model is still writing them, a reload
 * reattaches to the answer, the isolation headers and the CSP arrive as the app sent them, the
 * engines' files keep their precompressed bodies, an upload of several megabytes passes, the
 * metrics can be scraped, and the client address is the one nginx saw only when the app trusts it.
 */
test.describe.configure({ mode: 'serial' });

const STRICT = { appPort: STRICT_APP_PORT, httpsPort: e2ePort(3184), httpPort: e2ePort(3185) };
const MAIN = { appPort: MAIN_APP_PORT, httpsPort: e2ePort(3186), httpPort: e2ePort(3187) };
const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Nginx = Awaited<ReturnType<typeof startNginx>>;
let strict: Nginx;
let main: Nginx;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const chatText = (text: string | RegExp) => page.locator('#conversation').getByText(text);

test.beforeAll(async () => {
  const missing = nginxUnavailable();
  if (missing) throw new Error(missing);
  [strict, main] = await Promise.all([startNginx(STRICT), startNginx(MAIN)]);
  browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: strict.origin });
  page = await context.newPage();
});

test.afterAll(async () => {
  await browser?.close();
  await Promise.all([strict?.close(), main?.close()]);
});

/** The page CSP with its per-request nonce taken out. */
const withoutNonce = (csp: string | null | undefined) => csp?.replace(/'nonce-[^']+'/g, "'nonce'") ?? null;

test('the page arrives with the app’s isolation headers and CSP, and is cross-origin isolated', async () => {
  const viaNginx = await page.goto('/');
  const direct = await fetch(`http://127.0.0.1:${STRICT.appPort}/`);
  const headers = viaNginx!.headers();
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(headers['content-security-policy']).toContain("'nonce-");
  expect(withoutNonce(headers['content-security-policy'])).toBe(withoutNonce(direct.headers.get('content-security-policy')));
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  // The worker's CSP names the origin the browser used: nginx passed the scheme and host.
  const worker = await context.request.get('/workers/python.worker.mjs');
  expect(worker.headers()['content-security-policy']).toContain(`${strict.origin}/pyodide/`);
});

test('the engines’ files keep their precompressed body and ETag; nothing is compressed again', async () => {
  const version = fs.readdirSync('public/pyodide').find((name) => fs.existsSync(path.join('public/pyodide', name, 'pyodide.asm.wasm.br')));
  const file = `/pyodide/${version}/pyodide.asm.wasm`;
  const viaNginx = await context.request.head(file, { headers: { 'accept-encoding': 'br, gzip' } });
  const direct = await fetch(`http://127.0.0.1:${STRICT.appPort}${file}`, { method: 'HEAD', headers: { 'accept-encoding': 'br, gzip' } });
  expect(viaNginx.status()).toBe(200);
  expect(viaNginx.headers()['content-encoding']).toBe('br');
  expect(viaNginx.headers()['etag']).toBe(direct.headers.get('etag'));
  expect(viaNginx.headers()['content-length']).toBe(direct.headers.get('content-length'));
});

test('a streamed answer reaches the page while the model is still writing it', async () => {
  const trigger = `e2e-nginx-stream-${Date.now()}`;
  // The model sends its first words, then waits for this test: they cannot have waited for the end.
  await addScenarios([{ trigger, hold: { afterChunks: 3 }, chunkChars: 6, steps: [{ text: 'Early words arrive first. Then the rest, THE END.' }] }]);
  await page.goto('/');
  await waitForHydration(page);
  await send(page, `Stream it. ${trigger}`);
  await expect(chatText(/Early words arr/)).toBeVisible();
  await expect(chatText(/THE END/)).toHaveCount(0);
  await releaseHeld(trigger);
  await expect(chatText(/THE END\./)).toBeVisible();
});

test('on the wire, an answer’s first chunks pass nginx while the model holds the rest', async () => {
  const trigger = `e2e-nginx-wire-${Date.now()}`;
  const text = 'Early words arrive first. Then the rest, THE END.';
  await addScenarios([{ trigger, hold: { afterChunks: 3 }, chunkChars: 6, steps: [{ text }] }]);
  await page.goto('/');
  const cookie = (await context.cookies(strict.origin)).map((c) => `${c.name}=${c.value}`).join('; ');
  const body = JSON.stringify({ id: crypto.randomUUID(), message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: `On the wire. ${trigger}` }] } });
  // The model is released only once its third chunk has come through nginx: buffered, it never
  // would be, and the answer would end in the app's idle timeout instead of its last words.
  let released: Promise<void> | null = null;
  const received = await new Promise<string>((resolve, reject) => {
    const request = https.request(new URL('/api/chat', strict.origin), { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json', cookie } }, (response) => {
      let sse = '';
      if (response.statusCode !== 200) reject(new Error(`POST /api/chat answered ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        sse += chunk;
        if (!released && sse.includes('"delta":"arrive"')) released = releaseHeld(trigger);
      });
      response.on('end', () => resolve(sse));
    });
    request.on('error', reject);
    request.end(body);
  });
  await released;
  const deltas = [...received.matchAll(/"type":"text-delta","id":"[^"]*","delta":"([^"]*)"/g)].map((m) => m[1]);
  expect(deltas.join('')).toBe(text);
});

test('a reload mid-answer reattaches through nginx and the answer completes, the question sent once', async () => {
  const trigger = `e2e-nginx-resume-${Date.now()}`;
  await addScenarios([{ trigger, hold: { afterChunks: 3 }, chunkChars: 6, steps: [{ text: 'Resumed words come first. Then the rest, THE END.' }] }]);
  await page.goto('/');
  await waitForHydration(page);
  await send(page, `Stream it again. ${trigger}`);
  await expect(chatText(/Resumed words/)).toBeVisible();
  await page.reload();
  await expect(chatText(/Resumed words/)).toBeVisible();
  // Only the reattached stream can bring the end: the stored answer is still the draft.
  await releaseHeld(trigger);
  await expect(chatText(/THE END\./)).toBeVisible();
  expect(await chatRequestsFor(trigger)).toHaveLength(1);
});

/** This instance's metrics through nginx, as a Prometheus server scrapes them. */
async function scrape(authorization = `Bearer ${METRICS_TOKEN}`): Promise<{ status: number; text: string }> {
  const response = await context.request.get('/api/metrics', { headers: { authorization } });
  return { status: response.status(), text: await response.text() };
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

test('an upload of several megabytes passes, and the metrics count it, the answers and their model', async () => {
  expect((await scrape('Bearer wrong-token-wrong-token')).status).toBe(401);
  expect((await fetch(`http://127.0.0.1:${MAIN.appPort}/api/metrics`)).status).toBe(404);
  const before = await scrape();
  expect(before.status).toBe(200);
  // Above nginx's default body limit (1 MB), below the conversation's quota on this server.
  const size = 2_500_000;
  const csv = `n\n${'1234567\n'.repeat(size / 8)}`.slice(0, size);
  const id = crypto.randomUUID();
  const upload = await context.request.post(`/api/conversations/${id}/files`, { headers: { 'x-file-name': 'big.csv', 'content-type': 'text/csv' }, data: Buffer.from(csv) });
  expect(upload.status(), await upload.text()).toBe(201);
  const after = await scrape();
  expect(sample(after.text, 'runpad_uploads_total') - sample(before.text, 'runpad_uploads_total')).toBeGreaterThanOrEqual(1);
  expect(sample(after.text, 'runpad_upload_bytes_total') - sample(before.text, 'runpad_upload_bytes_total')).toBeGreaterThanOrEqual(size);
  expect(sample(after.text, 'runpad_http_requests_total', { route: '/api/conversations/[id]/files', method: 'POST', status: '201' })).toBeGreaterThanOrEqual(1);
  expect(after.text).not.toContain(id);
  // The answers streamed above.
  expect(sample(after.text, 'runpad_http_requests_total', { route: '/api/chat', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(2);
  expect(sample(after.text, 'runpad_model_first_chunk_seconds_count', { model: 'default' })).toBeGreaterThanOrEqual(2);
  expect(sample(after.text, 'runpad_model_duration_seconds_count', { model: 'default', outcome: 'finished' })).toBeGreaterThanOrEqual(2);
});

/**
 * A new guest's first API request through nginx, from the loopback address `from` (Linux routes
 * all of 127/8 to the loopback), with an X-Forwarded-For of the client's own making.
 */
async function newGuestFrom(nginx: Nginx, from: string, spoofed: string): Promise<void> {
  const get = (pathname: string, cookie?: string) =>
    new Promise<{ status: number; cookies: string[] }>((resolve, reject) => {
      const request = https.get(new URL(pathname, nginx.origin), { localAddress: from, rejectUnauthorized: false, headers: { 'x-forwarded-for': spoofed, ...(cookie ? { cookie } : {}) } }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, cookies: (response.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]) }));
      });
      request.on('error', reject);
    });
  const page = await get('/sign-in');
  expect(page.cookies.length).toBeGreaterThan(0);
  expect((await get('/api/conversations', page.cookies.join('; '))).status).toBe(200);
}

test('the client address is the one nginx saw with RUNPAD_TRUST_PROXY, and nginx’s own without it', async () => {
  const probe = postgres(POSTGRES_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  const reachable = await probe`select 1`.then(() => true, () => false);
  await probe.end();
  // A failure under CI=true (lib/testing/required.ts), a skip elsewhere.
  const unreachable = skipOutsideCi(reachable ? null : `no Postgres server at ${new URL(POSTGRES_ADMIN_URL).host}: the suite's servers keep their counters in PGlite`);
  test.skip(unreachable !== null, unreachable ?? '');
  const octet = () => 2 + Math.floor(Math.random() * 250);
  const [viaTrusting, viaPlain] = [`127.${octet()}.${octet()}.${octet()}`, `127.${octet()}.${octet()}.${octet()}`];
  const [spoofedTrusting, spoofedPlain] = [`203.0.113.${octet()}`, `198.51.100.${octet()}`];
  await newGuestFrom(strict, viaTrusting, spoofedTrusting);
  await newGuestFrom(main, viaPlain, spoofedPlain);
  // Each server counts new guests per address in its own database (e2e/fixtures/app-servers.mjs).
  const counted = async (port: number, address: string) => {
    const sql = postgres(Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/runpad_e2e_app_${port}` }).href, { max: 1, onnotice: () => undefined });
    try {
      const rows = await sql<{ key: string }[]>`select key from rate_limits where key like ${`%:guests-per-address:${address}`}`;
      return rows.length;
    } finally {
      await sql.end();
    }
  };
  expect(await counted(STRICT.appPort, viaTrusting)).toBe(1);
  expect(await counted(STRICT.appPort, spoofedTrusting)).toBe(0);
  expect(await counted(MAIN.appPort, viaPlain)).toBe(0);
  expect(await counted(MAIN.appPort, spoofedPlain)).toBe(0);
});
