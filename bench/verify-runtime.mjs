#!/usr/bin/env node
// `node bench/verify-runtime.mjs` (after `npm run build`): checks the interpreter behaves the same
// on a first visit (which makes the memory snapshot) and on a cached visit (which starts from it):
// output, state across runs, errors, images, the time limit's interrupt, and the network block.
// Its own ports (3302, 4012), so it can run next to the e2e suite and the benchmark.
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { startApp } from './servers.mjs';

const APP_PORT = 3302;
const APP = `http://127.0.0.1:${APP_PORT}`;
const SNAPSHOT_CACHE = 'runpad-pyodide-snapshot-v1';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
});
const fake = await startFakeOpenAI({ port: 4012 });
const app = await startApp(APP_PORT, { PORT: String(APP_PORT), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'verify', RUNPAD_MODEL: 'verify', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-verify-${Date.now()}` });

const failures = [];
function check(what, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : ` — ${detail}`}`);
  if (!ok) failures.push(what);
}

/** Runs code through the fake model; returns the cell's status and text. */
async function run(page, code) {
  const trigger = `verify-${Math.random().toString(36).slice(2)}`;
  fake.addScenarios([{ trigger, chunkDelayMs: 0, steps: [{ toolCall: { name: 'python', arguments: { code } } }, { text: 'ok' }] }]);
  const before = await page.locator('section[data-cell-status]').count();
  const composer = page.getByLabel('Message', { exact: true });
  await composer.fill(`run ${trigger}`);
  await composer.press('Enter');
  const cell = page.locator('section[data-cell-status]').nth(before);
  await page.waitForFunction(
    (index) => ['ok', 'error', 'timeout', 'interrupted', 'crashed'].includes(document.querySelectorAll('section[data-cell-status]')[index]?.getAttribute('data-cell-status')),
    before,
    { timeout: 60_000 },
  );
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 60_000 });
  const traceback = cell.getByRole('button', { name: 'Show traceback' });
  if (await traceback.count()) await traceback.click();
  return { status: await cell.getAttribute('data-cell-status'), text: (await cell.textContent()) ?? '', images: await cell.locator('figure img').count() };
}

const PNG_CODE = `
import struct, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
raw = b"".join(b"\\x00" + bytes([200, 30, 30]) * 8 for _ in range(8))
data = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
class P:
    def _repr_png_(self):
        return data
display(P())
`;

async function visit(context, label) {
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(APP);
  await page.locator('[data-kernel-state="ready"]').waitFor({ timeout: 120_000 });
  console.log(`— ${label}: interpreter ready after ${Date.now() - t0} ms`);
  const r1 = await run(page, 'x = 41\nprint("hello from", __name__)');
  check(`${label}: print`, r1.status === 'ok' && r1.text.includes('hello from __main__'), JSON.stringify(r1));
  const r2 = await run(page, 'print(x + 1)');
  check(`${label}: state kept across runs`, r2.status === 'ok' && r2.text.includes('42'), JSON.stringify(r2));
  const r3 = await run(page, 'def f():\n    return 1 / 0\nf()');
  check(`${label}: errors with traceback`, r3.status === 'error' && r3.text.includes('ZeroDivisionError') && r3.text.includes('return 1 / 0'), r3.text.slice(0, 300));
  const r4 = await run(page, PNG_CODE);
  check(`${label}: display() of a PNG`, r4.status === 'ok' && r4.images === 1, JSON.stringify({ ...r4, text: r4.text.slice(0, 200) }));
  const r5 = await run(page, 'from pyodide.http import pyfetch\ntry:\n    await pyfetch("/api/conversations")\n    print("FETCHED")\nexcept Exception as e:\n    print("blocked:", type(e).__name__, e)');
  check(`${label}: pyfetch blocked`, r5.text.includes('blocked:') && !r5.text.includes('FETCHED'), r5.text.slice(0, 300));
  const r6 = await run(page, 'import js\nprint("fetch:", getattr(js, "fetch", None), "xhr:", getattr(js, "XMLHttpRequest", None), "caches:", getattr(js, "caches", None))');
  check(`${label}: js.fetch, XMLHttpRequest and caches removed`, r6.text.includes('fetch: None xhr: None caches: None'), r6.text.slice(0, 300));
  await page.evaluate(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 1000 })));
  const r7 = await run(page, 'while True: pass');
  check(`${label}: time limit interrupts`, r7.status === 'timeout' && r7.text.includes('Variables were kept'), JSON.stringify(r7).slice(0, 300));
  const r8 = await run(page, 'print(x)');
  check(`${label}: state kept after the interrupt`, r8.status === 'ok' && r8.text.includes('41'), JSON.stringify(r8));
  await page.evaluate(() => localStorage.removeItem('runpad:settings'));
  const cached = await page.evaluate(async (name) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length, SNAPSHOT_CACHE);
  await page.close();
  return cached;
}

try {
  const context = await browser.newContext();
  await visit(context, 'first visit');
  // The snapshot is stored in the background after the first start; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const page = await context.newPage();
  await page.goto(APP);
  const stored = await page.evaluate(async (name) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length, SNAPSHOT_CACHE);
  await page.close();
  check('a snapshot was stored after the first visit', stored === 1, `entries: ${stored}`);
  await visit(context, 'cached visit (from the snapshot)');
  await context.close();
} finally {
  await browser.close();
  app.kill();
  await fake.close();
}
console.log(failures.length === 0 ? 'all checks passed' : `${failures.length} checks failed`);
process.exit(failures.length === 0 ? 0 : 1);
