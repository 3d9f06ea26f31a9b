/**
 * The suite's `test`: Playwright's, with every new browser context handed the Pyodide memory
 * snapshot a first visit makes (workers/snapshot-store.ts), so that only the tests about a first
 * visit pay for Python's cold start and the snapshot's making. A returning visitor's browser holds
 * exactly this cache entry; nothing else of the app changes. Opt out with
 * `test.use({ seedSnapshot: false })`.
 *
 * The snapshot is captured once per origin per run, from a context that booted the interpreter the
 * way a first visit does, and kept in a file that every Playwright worker of the run reads: the
 * first worker to need an origin's snapshot captures it under a lock, the others wait for the file.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

const SNAPSHOT_CACHE = 'runpad-pyodide-snapshot-v1';

type Snapshot = { key: string; body: Buffer };

const snapshots = new Map<string, Promise<Snapshot>>();

/** The run's snapshot files; e2e/global-setup.ts empties it, so a run never takes an earlier build's. */
export const SNAPSHOT_DIR = path.resolve('e2e/.artifacts/snapshots');

/**
 * The bytes travel from a loopback server of the test process (CORS-open), not through the
 * browser protocol: 30 MB per context through `route.fulfill` cost seconds of base64.
 */
let byteServer: Promise<string> | null = null;
const served = new Map<string, Buffer>();

function snapshotServer(): Promise<string> {
  byteServer ??= new Promise((resolve) => {
    const server = http.createServer((request, response) => {
      const body = served.get(new URL(request.url ?? '/', 'http://x').searchParams.get('origin') ?? '');
      response.writeHead(body ? 200 : 404, { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' });
      response.end(body);
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`));
  });
  return byteServer;
}

async function captureSnapshot(browser: Browser, origin: string): Promise<Snapshot> {
  const context = await browser.newContext({ baseURL: origin });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 120_000 });
    // The worker stores the snapshot right after the interpreter is ready: wait for the entry.
    let key = '';
    await expect
      .poll(async () => (key = await page.evaluate(async (name) => (await (await caches.open(name)).keys())[0]?.url ?? '', SNAPSHOT_CACHE)), { timeout: 60_000 })
      .not.toBe('');
    const base64 = await page.evaluate(
      async ({ name, url }) => {
        const response = await (await caches.open(name)).match(url);
        const blob = await response!.blob();
        return await new Promise<string>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
          reader.onerror = () => reject(reader.error);
          reader.readAsDataURL(blob);
        });
      },
      { name: SNAPSHOT_CACHE, url: key },
    );
    return { key, body: Buffer.from(base64, 'base64') };
  } finally {
    await context.close();
  }
}

/**
 * The origin's snapshot from the run's file, captured by this worker if no other worker holds the
 * lock (a directory: `mkdir` is atomic). A worker whose capture fails removes the lock, so a
 * waiting worker takes over instead of waiting for a file that will never come.
 */
async function sharedSnapshot(browser: Browser, origin: string): Promise<Snapshot> {
  const name = encodeURIComponent(origin);
  const file = path.join(SNAPSHOT_DIR, `${name}.bin`);
  const keyFile = path.join(SNAPSHOT_DIR, `${name}.key`);
  const lock = path.join(SNAPSHOT_DIR, `${name}.lock`);
  fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
  for (;;) {
    if (fs.existsSync(keyFile)) return { key: fs.readFileSync(keyFile, 'utf8'), body: fs.readFileSync(file) };
    try {
      fs.mkdirSync(lock);
    } catch {
      // Another worker is capturing: wait for its key file (written last) or for the lock to go.
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      const snapshot = await captureSnapshot(browser, origin);
      fs.writeFileSync(file, snapshot.body);
      fs.writeFileSync(keyFile, snapshot.key);
      return snapshot;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * Puts the origin's snapshot into `page`'s context's Cache Storage, as a returning visit would
 * find it, from a same-origin document the page is left on.
 */
async function seedSnapshot(browser: Browser, page: Page, origin: string): Promise<void> {
  let snapshot = snapshots.get(origin);
  if (!snapshot) {
    snapshot = sharedSnapshot(browser, origin);
    snapshots.set(origin, snapshot);
    snapshot.catch(() => snapshots.delete(origin));
  }
  const { key, body } = await snapshot;
  served.set(origin, body);
  const source = `${await snapshotServer()}?origin=${encodeURIComponent(origin)}`;
  // Any same-origin document will do; the health check sets no cookie and starts nothing. (A
  // page fulfilled by the test runner would count as public and be refused loopback fetches.)
  await page.goto(`${origin}/api/health`);
  await page.evaluate(
    async ({ name, url, source }) => {
      const bytes = await (await fetch(source)).arrayBuffer();
      await (await caches.open(name)).put(url, new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }));
    },
    { name: SNAPSHOT_CACHE, url: key, source },
  );
}

/** A new context for `origin` that holds the snapshot (for tests that make their own contexts). */
export async function newSeededContext(browser: Browser, origin: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, ...options });
  const page = await context.newPage();
  try {
    await seedSnapshot(browser, page, new URL(origin).origin);
  } finally {
    await page.close();
  }
  return context;
}

const test = base.extend<{ seedSnapshot: boolean }>({
  seedSnapshot: [true, { option: true }],
  // The page that seeds the context is the test's page: its first navigation stays in the same
  // renderer process (a second one, started and torn down, cost ~0.7 s of CPU under the suite's
  // load). The context is seeded through this page: a test that takes `context` without `page`
  // gets it unseeded (none does).
  page: async ({ context, browser, baseURL, seedSnapshot: seed }, provide) => {
    const page = await context.newPage();
    if (seed && baseURL) await seedSnapshot(browser, page, new URL(baseURL).origin);
    await provide(page);
  },
});

export * from '@playwright/test';
export { expect, test };
