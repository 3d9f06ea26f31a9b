/**
 * Bundles lib/targets/graphviz/engine/graphviz.worker.ts the way scripts/build-workers.mjs does and runs the bundle in
 * a Node worker thread dressed as a dedicated worker (self, message events, postMessage), with
 * every network API replaced by a trap. It checks what unit tests of the parts cannot: Graphviz
 * starts without the network, the worker removes the network APIs, it listens only on the port it
 * is given, and what comes back matches the protocol and is sanitized.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerReplySchema, type WorkerReply } from './protocol.client';

const root = path.resolve(import.meta.dirname, '../../..');
const NETWORK = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts'];

const HARNESS = `
import { parentPort, workerData } from 'node:worker_threads';
const NETWORK = ${JSON.stringify(NETWORK)};
const attempts = [];
for (const name of NETWORK) {
  globalThis[name] = function () { attempts.push(name); throw new Error(name + ' is a trap in this test'); };
}
const scope = new EventTarget();
globalThis.self = globalThis;
globalThis.addEventListener = scope.addEventListener.bind(scope);
globalThis.removeEventListener = scope.removeEventListener.bind(scope);
globalThis.postMessage = (message) => parentPort.postMessage({ harness: 'global-post', message });
// As in a browser, messages wait until the worker's script has run.
let loaded = false;
const early = [];
const deliver = (data) => scope.dispatchEvent(new MessageEvent('message', { data }));
parentPort.on('message', (data) => {
  if (data && data.harness === 'probe') {
    parentPort.postMessage({ harness: 'probe', attempts, present: NETWORK.filter((name) => name in globalThis) });
  } else if (loaded) {
    deliver(data);
  } else {
    early.push(data);
  }
});
await import(workerData.bundle);
loaded = true;
early.forEach(deliver);
`;

type HarnessMessage = { harness: string; attempts?: string[]; present?: string[]; message?: unknown };

let dir: string;
let bundleCode: string;
let worker: Worker;
let port: MessagePort;
const fromHarness: HarnessMessage[] = [];
const replies: WorkerReply[] = [];
const invalidReplies: unknown[] = [];

function until<T>(find: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = find();
      if (found !== undefined) resolve(found);
      else if (Date.now() > deadline) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(poll, 10);
    };
    poll();
  });
}

const renderedWithId = (id: number) => until(() => replies.find((r) => r.type === 'rendered' && r.id === id), `reply ${id}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function probe(): Promise<HarnessMessage> {
  const seen = fromHarness.length;
  worker.postMessage({ harness: 'probe' });
  return until(() => fromHarness.slice(seen).find((m) => m.harness === 'probe'), 'probe');
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphviz-worker-'));
  const bundle = path.join(dir, 'graphviz.worker.mjs');
  await build({
    entryPoints: [path.join(root, 'lib/targets/graphviz/engine/graphviz.worker.ts')],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    alias: { '@': root },
    logLevel: 'silent',
  });
  bundleCode = fs.readFileSync(bundle, 'utf8');
  const harness = path.join(dir, 'harness.mjs');
  fs.writeFileSync(harness, HARNESS);

  worker = new Worker(harness, { workerData: { bundle: pathToFileURL(bundle).href } });
  worker.on('message', (message: HarnessMessage) => fromHarness.push(message));
  worker.on('error', (error) => fromHarness.push({ harness: 'error', message: String(error) }));

  // Before any connect: requests and bogus connects on the global scope must go unanswered.
  worker.postMessage({ type: 'render', id: 1, dot: 'digraph { early }' });
  worker.postMessage({ type: 'connect', port: 'not a port' });

  const channel = new MessageChannel();
  port = channel.port1;
  port.on('message', (data: unknown) => {
    const parsed = workerReplySchema.safeParse(data);
    if (parsed.success) replies.push(parsed.data);
    else invalidReplies.push(data);
  });
  worker.postMessage({ type: 'connect', port: channel.port2 }, [channel.port2]);
  await until(() => replies.find((r) => r.type === 'ready'), 'ready');
}, 60_000);

afterAll(async () => {
  port?.close();
  await worker?.terminate();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('graphviz worker bundle', () => {
  it('embeds the wasm: no .wasm file to fetch', () => {
    expect(bundleCode).toContain('WebAssembly.instantiate');
    expect(bundleCode).not.toMatch(/\.wasm\b/);
  });

  it('started Graphviz without touching the network, then removed the network APIs', async () => {
    const { attempts, present } = await probe();
    expect(attempts).toEqual([]);
    expect(present).toEqual([]);
    expect(replies[0]).toEqual({ type: 'ready' });
  });

  it('renders over the port and sends back sanitized SVG', async () => {
    const dot = 'digraph { a [URL="https://evil.example/x", label="<script>x</script>"]; a -> b [href="javascript:alert(1)"] }';
    port.postMessage({ type: 'render', id: 7, dot });
    const reply = await renderedWithId(7);
    expect(reply).toMatchObject({ type: 'rendered', id: 7, ok: true });
    if (reply.type !== 'rendered' || !reply.ok) return;
    expect(reply.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(reply.svg).toContain('&lt;script&gt;x&lt;/script&gt;</text>');
    expect(reply.svg).not.toMatch(/href|evil\.example|<a[\s>]|<script/);
    expect(reply.width).toBeGreaterThan(0);
    expect(reply.height).toBeGreaterThan(0);
  });

  it('answers errors and malformed requests in order, and ignores what carries no id', async () => {
    port.postMessage({ type: 'render', id: 8, dot: 'digraph {\n  a -> -> b\n}' });
    port.postMessage({ type: 'render', id: 9 });
    port.postMessage('hello');
    port.postMessage({ type: 'render', id: 10, dot: 'graph { x -- y }' });
    await renderedWithId(10);
    const answered = replies.filter((r) => r.type === 'rendered').map((r) => (r.type === 'rendered' ? r.id : null));
    expect(answered).toEqual([7, 8, 9, 10]);
    expect(await renderedWithId(8)).toMatchObject({ ok: false, failure: { kind: 'code', line: 2, evalue: expect.stringContaining('syntax error in line 2') } });
    expect(await renderedWithId(9)).toMatchObject({ ok: false, failure: { kind: 'crashed', detail: 'the render request was malformed' } });
    expect(invalidReplies).toEqual([]);
  });

  it('listens on its global scope for nothing after the first connect', async () => {
    const second = new MessageChannel();
    const heardOnSecond: unknown[] = [];
    second.port1.on('message', (data: unknown) => heardOnSecond.push(data));
    worker.postMessage({ type: 'connect', port: second.port2 }, [second.port2]);
    worker.postMessage({ type: 'render', id: 11, dot: 'digraph { late }' });
    second.port1.postMessage({ type: 'render', id: 12, dot: 'digraph { late }' });
    port.postMessage({ type: 'render', id: 13, dot: 'digraph { z }' });
    await renderedWithId(13);
    await pause(300);
    second.port1.close();
    expect(heardOnSecond).toEqual([]);
    expect(replies.some((r) => r.type === 'rendered' && [1, 11, 12].includes(r.id))).toBe(false);
    expect(fromHarness.filter((m) => m.harness !== 'probe')).toEqual([]);
  });
});
