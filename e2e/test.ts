/**
 * The suite's `test`: Playwright's, with every test's browser a returning visitor's. A visitor who
 * has been here before holds the app's files in the HTTP cache, their compiled code in the code
 * cache (V8's for the scripts, and Pyodide's wasm module) and the Pyodide memory snapshot in Cache
 * Storage (lib/targets/python/engine/snapshot-store.ts), and no session: each test is still a new guest. Only the
 * tests about a first visit pay for Python's cold start, the snapshot's making and the compiles:
 * `test.use({ firstVisit: true })` gives them an empty profile.
 *
 * A profile directory is a browser's own, so every test's context is a browser of its own
 * (`launchPersistentContext`, with the run's launch and context options), started from a copy of
 * the origin's template profile. The template is made once per origin per run by a real first
 * visit, by whichever Playwright worker needs it first (under a lock: `mkdir` is atomic), and
 * kept in `e2e/.artifacts/profiles/` for the others (emptied by the global setup, so a run never
 * takes an earlier build's). Against a new in-memory context seeded with the snapshot, a test's
 * browser costs ~0.7 s of CPU less (bench/NOTES-ci.md, "2026-11-26: Returning visitors' browsers").
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect as baseExpect, type BrowserContext, type BrowserType, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { SNAPSHOT_CACHE_NAME } from '../lib/targets/python/worker-url';
import { SNAPSHOT_DIGEST_KEY } from '../lib/targets/python/snapshot-digest.client';
import { APP_SERVERS_URL } from './ports';
import { patience, patientExpect } from './patience';

/** Playwright's `expect` with its explicit timeouts scaled to this machine (e2e/patience.ts), here too. */
const expect = patientExpect(baseExpect);

export type Playwright = PlaywrightWorkerArgs['playwright'];

/** The run's template profiles and the tests' copies of them; e2e/global-setup.ts empties both. */
export const PROFILE_DIR = path.resolve('e2e/.artifacts/profiles');
export const VISITOR_DIR = path.resolve('e2e/.artifacts/visitors');

/** The memory snapshot the build makes (scripts/build-snapshot.mjs), served beside Pyodide's files. */
export const BUILT_SNAPSHOT_PATH = /\/pyodide\/[^/]+\/runpad-snapshot-[0-9a-f]+\.bin$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The byte size of the files under `dir` (0 if it does not exist). */
function sizeOf(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).reduce((sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum), 0);
}

/**
 * A first visit to `origin` in the profile at `dir`, kept as a returning visitor's: Python ready,
 * its snapshot stored (and its digest recorded), the compiled wasm module in the code cache; then
 * the visitor's identity (cookies, local storage but that record) is removed.
 */
async function makeTemplate(browserType: BrowserType, origin: string, dir: string): Promise<void> {
  const context = await browserType.launchPersistentContext(dir, { baseURL: origin });
  try {
    // Python initialised in this browser rather than restored from the build's snapshot: its start
    // runs enough of Pyodide's code for Chromium to keep the compiled module, as a returning
    // visitor's browser that has run code has it (a restore alone runs too little of it).
    await context.route(BUILT_SNAPSHOT_PATH, (route) => route.fulfill({ status: 404, body: '' }));
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 120_000 });
    // The worker stores the snapshot right after the interpreter is ready.
    await expect
      .poll(() => page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, SNAPSHOT_CACHE_NAME), { timeout: 60_000 })
      .toBeGreaterThan(0);
    // Chromium caches a wasm module once enough of it is optimised, in the background. A template
    // without it still holds everything else: wait a while for it, not for ever.
    const wasmCache = path.join(dir, 'Default', 'Code Cache', 'wasm');
    for (let waited = 0; waited < 30_000 && sizeOf(wasmCache) < 1_000_000; waited += 250) await sleep(250);
    // Chromium keeps a script's compiled code from its second load on: a returning visitor has
    // been here more than once.
    await context.unroute(BUILT_SNAPSHOT_PATH);
    await page.reload();
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 120_000 });
    await context.clearCookies();
    // The identity goes; the record of the kept snapshot's digest stays, as it does in a returning
    // visitor's browser (without it the kept snapshot is not trusted: lib/targets/python/snapshot-digest.client.ts).
    await page.evaluate((key) => {
      const digest = localStorage.getItem(key);
      localStorage.clear();
      sessionStorage.clear();
      if (digest) localStorage.setItem(key, digest);
    }, SNAPSHOT_DIGEST_KEY);
  } finally {
    await context.close();
  }
}

/**
 * The run's template profile for `origin`, made by this worker if no other holds the lock. A
 * worker whose making fails removes the lock, so a waiting worker takes over instead of waiting
 * for a template that will never come.
 */
async function templateFor(browserType: BrowserType, origin: string): Promise<string> {
  const base = path.join(PROFILE_DIR, encodeURIComponent(origin));
  const template = path.join(base, 'profile');
  const made = path.join(base, 'made');
  const lock = path.join(base, 'lock');
  fs.mkdirSync(base, { recursive: true });
  for (;;) {
    if (fs.existsSync(made)) return template;
    try {
      fs.mkdirSync(lock);
    } catch {
      await sleep(250); // another worker is making it: wait for its marker, or for the lock to go
      continue;
    }
    try {
      fs.rmSync(template, { recursive: true, force: true });
      await makeTemplate(browserType, origin, template);
      fs.writeFileSync(made, '');
      return template;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * A browser of its own for one visitor: from a copy of `origin`'s template profile (a returning
 * visitor) or from an empty one (a first visit). Its profile goes when it closes. The test's
 * options (baseURL, viewport, colour scheme…) apply as to any context; `options` adds to them.
 */
async function launchVisitor(browserType: BrowserType, origin: string | null, options: Parameters<BrowserType['launchPersistentContext']>[1] = {}): Promise<BrowserContext> {
  fs.mkdirSync(VISITOR_DIR, { recursive: true });
  const dir = fs.mkdtempSync(path.join(VISITOR_DIR, 'visitor-'));
  if (origin) fs.cpSync(await templateFor(browserType, origin), dir, { recursive: true });
  const context = await browserType.launchPersistentContext(dir, options);
  // The browser may still be writing its caches as the context reports closed: retry a while.
  // A profile left behind goes with the next run's global setup.
  context.on('close', () => {
    fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch((error: unknown) => console.warn(`e2e: could not remove ${dir}: ${String(error)}`));
  });
  return context;
}

/**
 * Another returning visitor's browser, for tests that need a second person (a share link's
 * reader, an attacker). Its first page is `context.pages()[0]`; the test closes it.
 */
export async function newVisitorContext(playwright: Playwright, origin: string, options: Parameters<BrowserType['launchPersistentContext']>[1] = {}): Promise<BrowserContext> {
  return launchVisitor(playwright.chromium, new URL(origin).origin, { baseURL: origin, ...options });
}

/** The first page of a visitor's browser (a persistent context opens with one). */
export async function firstPage(context: BrowserContext): Promise<Page> {
  return context.pages()[0] ?? (await context.newPage());
}

/**
 * Waits until the app server at `origin` answers, if it is one the suite's launcher boots
 * (e2e/fixtures/app-servers.mjs: Playwright waits only for the first); fails with its output if
 * it exited.
 */
async function appServerReady(origin: string): Promise<void> {
  const url = `${APP_SERVERS_URL}/status?port=${new URL(origin).port}`;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(200)) {
    const response = await fetch(url).catch(() => null);
    if (!response) return; // no launcher: this run's servers were started another way
    const text = await response.text();
    if (response.status === 200 || response.status === 404) return; // ready, or not one of the launcher's
    if (response.status === 500) throw new Error(`the app server at ${origin} exited while booting:\n${text}`);
  }
  throw new Error(`the app server at ${origin} did not answer within 120 s`);
}

const test = base.extend<{ firstVisit: boolean }, { appServer: void }>({
  appServer: [
    async ({}, provide, workerInfo) => {
      const { baseURL } = workerInfo.project.use;
      if (baseURL) await appServerReady(baseURL);
      await provide();
    },
    { scope: 'worker', auto: true },
  ],
  firstVisit: [false, { option: true }],
  context: async ({ playwright, baseURL, firstVisit }, provide) => {
    const context = await launchVisitor(playwright.chromium, firstVisit || !baseURL ? null : new URL(baseURL).origin);
    await provide(context);
    await context.close();
  },
  page: async ({ context }, provide) => {
    await provide(await firstPage(context));
  },
});

/**
 * The suite's `test` and `expect` with their safety nets scaled to this machine (e2e/patience.ts):
 * `test.setTimeout(ms)` and every explicit `timeout` are the reference machine's numbers.
 */
const patientDescribe = new Proxy(test.describe, {
  get(target, property, receiver) {
    if (property === 'configure') return (options: Parameters<typeof target.configure>[0]) => target.configure(options.timeout ? { ...options, timeout: patience(options.timeout) } : options);
    return Reflect.get(target, property, receiver);
  },
});
const patientTest = new Proxy(test, {
  get(target, property, receiver) {
    if (property === 'setTimeout') return (ms: number) => target.setTimeout(patience(ms));
    if (property === 'describe') return patientDescribe;
    return Reflect.get(target, property, receiver);
  },
});

export * from '@playwright/test';
export { expect, patientTest as test, patience };
