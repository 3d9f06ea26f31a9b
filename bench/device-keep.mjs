// Keeping a file on the device (issue 39): the keep worker (lib/files/device-keep.worker.ts) reads a
// dropped file in chunks, writes it into OPFS through a sync access handle and hashes it (SHA-256,
// hash-wasm) in one pass. This bench drops a generated file (1 GB by default, BENCH_KEEP_MB) into a
// bare page served with the app's isolation headers and the built worker (npm run build, or
// node scripts/build-workers.mjs), and times, interleaved in the same run: the keep (read + write +
// hash), and two baselines in a worker of the same page: reading the file alone, and reading and
// hashing it with hash-wasm alone (no write). Usage: node bench/device-keep.mjs [rounds]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';

// As e2e/browser.ts (TypeScript, which this plain script cannot import on Node 20).
const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];

const MB = Number(process.env.BENCH_KEEP_MB ?? 1024);
const ROUNDS = Number(process.argv[2] ?? 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-keep-'));
const file = path.join(dir, 'big.csv');
{
  const line = Buffer.from('12345,alpha,0.5,2026-11-27\n'.repeat(40_000)); // ~1 MB
  const fd = fs.openSync(file, 'w');
  let written = 0;
  while (written < MB * 1024 * 1024) written += fs.writeSync(fd, line);
  fs.closeSync(fd);
}
const size = fs.statSync(file).size;

const PAGE = `<!doctype html><input type="file" id="f"><script type="module">
const baseline = \`
import { createSHA256 } from '\${location.origin}/hash-wasm.mjs';
self.onmessage = async ({ data: { file, hash } }) => {
  const t0 = performance.now();
  const hasher = hash ? await createSHA256() : null;
  hasher?.init();
  const CHUNK = 8 * 1024 * 1024;
  let next = file.slice(0, CHUNK).arrayBuffer();
  for (let at = 0; next; ) {
    const buffer = await next;
    at += buffer.byteLength;
    next = at < file.size ? file.slice(at, at + CHUNK).arrayBuffer() : null;
    hasher?.update(new Uint8Array(buffer));
  }
  self.postMessage({ ms: performance.now() - t0, sha256: hasher?.digest('hex') ?? null });
};\`;
const baselineUrl = URL.createObjectURL(new Blob([baseline], { type: 'text/javascript' }));
window.measure = (kind) => new Promise((resolve) => {
  const file = document.getElementById('f').files[0];
  const t0 = performance.now();
  if (kind === 'keep' || kind === 'keepOne') {
    // 'keep' as the page does it (a second instance hashes, fed over a channel); 'keepOne': one worker hashing itself.
    const worker = new Worker('/workers/device-keep.worker.mjs', { type: 'module' });
    const hasher = kind === 'keep' ? new Worker('/workers/device-keep.worker.mjs', { type: 'module' }) : null;
    const channel = new MessageChannel();
    hasher?.postMessage({ type: 'hash', port: channel.port1 }, [channel.port1]);
    worker.onmessage = async ({ data }) => {
      if (data.type === 'progress') return;
      worker.terminate();
      hasher?.terminate();
      const ms = performance.now() - t0;
      if (data.type === 'kept') {
        const root = await navigator.storage.getDirectory();
        const kept = await root.getDirectoryHandle('runpad-datasets');
        await kept.removeEntry(data.sha256);
        await kept.removeEntry(data.sha256 + '.json');
      }
      resolve({ ms, sha256: data.sha256 ?? null, reply: data.type, detail: data.detail ?? null });
    };
    worker.onerror = (event) => { worker.terminate(); resolve({ ms: NaN, reply: 'error', detail: event.message ?? 'worker failed' }); };
    if (hasher) worker.postMessage({ type: 'keep', file, name: 'big.csv', mediaType: 'text/csv', hashPort: channel.port2 }, [channel.port2]);
    else worker.postMessage({ type: 'keep', file, name: 'big.csv', mediaType: 'text/csv' });
  } else {
    const worker = new Worker(baselineUrl, { type: 'module' });
    worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
    worker.onerror = (event) => { worker.terminate(); resolve({ ms: NaN, error: event.message ?? 'worker failed' }); };
    worker.postMessage({ file, hash: kind === 'hash' });
  }
});
</script>`;

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost').pathname;
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
  if (url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  const files = { '/workers/device-keep.worker.mjs': 'public/workers/device-keep.worker.mjs', '/hash-wasm.mjs': 'node_modules/hash-wasm/dist/index.esm.js' };
  if (!files[url]) return response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/javascript' });
  fs.createReadStream(files[url]).pipe(response);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
const results = { keep: [], keepOne: [], hash: [], read: [] };
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.log('console:', m.text()));
  page.on('crash', () => console.log('page crashed'));
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.setInputFiles('#f', file);
  const hashes = new Set();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const kind of ['read', 'hash', 'keep', 'keepOne']) {
      const answer = await page.evaluate((k) => window.measure(k), kind);
      if (answer.error) throw new Error(`${kind} baseline failed: ${answer.error}`);
      if ((kind === 'keep' || kind === 'keepOne') && answer.reply !== 'kept') throw new Error(`keep failed: ${answer.reply} ${answer.detail}`);
      if (answer.sha256) hashes.add(answer.sha256);
      results[kind].push(answer.ms);
    }
  }
  if (hashes.size !== 1) throw new Error(`the keep and the baseline disagree on the hash: ${[...hashes].join(', ')}`);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const line = (kind, words) => `${words}: median ${(median(results[kind]) / 1000).toFixed(2)} s, ${Math.round(size / 1e6 / (median(results[kind]) / 1000))} MB/s (runs: ${results[kind].map((ms) => (ms / 1000).toFixed(2)).join(', ')} s)`;
console.log(`${(size / 1e6).toFixed(0)} MB file, ${ROUNDS} rounds, load ${os.loadavg()[0].toFixed(1)}`);
console.log(line('keep', 'keep (read + OPFS write, SHA-256 in a second worker)'));
console.log(line('keepOne', 'keep in one worker (read + OPFS write + SHA-256 in turn)'));
console.log(line('hash', 'baseline: read + SHA-256 (hash-wasm), no write'));
console.log(line('read', 'baseline: read only'));
