#!/usr/bin/env node
// `node bench/storage.mjs` (after `npm run build`): storage and multi-instance measures against
// baselines measured in the same run. Writes bench/out/<date>-storage.json and
// bench/RESULTS-storage.md. Benchmarks report numbers; they never fail on a timing.
//
// The baseline servers (raw upload/download servers, s3rver) run as child processes of this same
// file (`--serve <kind> <port> <path>`): their memory can then be read like the app's, and their
// work does not share an event loop with the clients that time them.
import { spawn } from 'node:child_process';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { startApp } from './servers.mjs';

const SELF = fileURLToPath(import.meta.url);
/** The default per-file upload limit (RUNPAD_UPLOAD_FILE_BYTES, lib/config.server.ts) is 100 MB, decimal. */
const SIZE = 100_000_000;
const PORTS = { fsApp: 3310, s3App: 3311, instanceA: 3312, instanceB: 3313, rawUpload: 3314, rawFiles: 3315, s3rver: 3316, fakeModel: 4012 };
const S3 = { bucket: 'runpad-bench', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const STREAMS = 500;
const DOWNLOAD_REPEAT = 5;
const UPLOAD_REPEAT = 3;
const IDLE_PROBE_MS = 5_000;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(xs.length * p) - 1))] ?? NaN;
const median = (xs) => pct(xs, 0.5);
const round = (x) => Math.round(x * 10) / 10;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mbPerS = (bytes, ms) => round(bytes / 1e6 / (ms / 1000));

// ---------------------------------------------------------------------------------------------
// Baseline servers (child processes)
// ---------------------------------------------------------------------------------------------

/**
 * Streams each POST body to a new file in `dir`, hashing it on the way and flushing it to disk
 * before answering: the work the filesystem store does (spool, SHA-256, fsync) without the app.
 */
function serveRawUpload(port, dir) {
  return http.createServer(async (request, response) => {
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      request,
      async function* (source) {
        for await (const chunk of source) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      fs.createWriteStream(path.join(dir, randomUUID()), { flush: true }),
    );
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ size, sha256: hash.digest('hex') }));
  });
}

/** Answers every GET with `file`, read with fs.createReadStream. */
function serveRawFile(port, file) {
  return http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(response);
  });
}

/** s3rver as lib/testing/s3-server.ts starts it (that file is TypeScript, so not imported). */
async function serveS3rver(port, dir) {
  const { default: S3rver } = await import('s3rver');
  await new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: S3.bucket }] }).run();
}

async function serveChild(kind, port, target) {
  if (kind === 's3') await serveS3rver(port, target);
  else {
    const server = kind === 'upload' ? serveRawUpload(port, target) : serveRawFile(port, target);
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  }
  process.stdout.write('ready\n');
}

/** Starts `node bench/storage.mjs --serve …` in its own process group; resolves once it listens. */
async function startChild(kind, port, target) {
  const child = spawn(process.execPath, [SELF, '--serve', kind, String(port), target], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const kill = () => killGroup(child.pid);
  onCleanup(kill);
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (data) => data.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`${kind} server exited (${code}) before it was ready`)));
  });
  await Promise.race([ready, sleep(30_000).then(() => Promise.reject(new Error(`${kind} server did not start`)))]);
  return { pid: child.pid, url: `http://127.0.0.1:${port}`, kill };
}

// ---------------------------------------------------------------------------------------------
// Processes: cleanup, memory
// ---------------------------------------------------------------------------------------------

const cleanups = [];
const onCleanup = (fn) => cleanups.push(fn);

async function cleanUp() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (error) {
      console.error('cleanup:', error.message);
    }
  }
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** A killed server may take a moment to exit; the next phase should not share the CPU with it. */
async function waitClosed(port) {
  for (let i = 0; i < 100; i += 1) {
    const open = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (!open) return;
    await sleep(100);
  }
}

/** The next-server process serving `port` (startApp's group is npm → sh → next-server). */
function nextServerPid(port) {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.startsWith('next-server') && fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`PORT=${port}`)) return Number(pid);
    } catch {
      // process went away
    }
  }
  throw new Error(`no next-server process for port ${port}`);
}

/** Current (VmRSS) and peak (VmHWM) resident memory in MB. */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))[1]) / 1024;
  return { rss: mb('VmRSS'), hwm: mb('VmHWM') };
}

/**
 * Watches a process's resident memory from now until stop(): the kernel's high-water mark, reset
 * here ("5" > clear_refs) so it covers only this window, plus 20 ms samples in case the reset is
 * not permitted. Growth is the peak minus the RSS at the start.
 */
function watchMemory(pid) {
  let peakResetOk = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    peakResetOk = false;
  }
  const before = memory(pid).rss;
  let sampled = before;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, memory(pid).rss);
  }, 20);
  return () => {
    clearInterval(timer);
    const now = memory(pid);
    const peak = Math.max(sampled, peakResetOk ? now.hwm : 0, now.rss);
    return { beforeMb: round(before), peakMb: round(peak), afterMb: round(now.rss), growthMb: round(peak - before), peakResetOk };
  };
}

// ---------------------------------------------------------------------------------------------
// Clients
// ---------------------------------------------------------------------------------------------

async function session(base) {
  const response = await fetch(`${base}/`);
  await response.arrayBuffer();
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`no session cookie from ${base}`);
  return cookie;
}

async function readText(stream) {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/**
 * The file's bytes with the first 8 replaced by random ones: each upload is new content (a hash
 * no store has yet, so none skips work as a duplicate) of the same size.
 */
async function* freshContent(file) {
  let first = true;
  for await (const chunk of fs.createReadStream(file)) {
    if (first) randomFillSync(chunk, 0, 8);
    first = false;
    yield chunk;
  }
}

/**
 * POSTs a file as the raw body with a Content-Length, as the browser's XMLHttpRequest sends a
 * File (components/files/upload-request.ts); times request start → answer read.
 */
async function postFile(url, file, headers = {}) {
  const t0 = performance.now();
  const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': fs.statSync(file).size } });
  const answered = once(request, 'response');
  await pipeline(freshContent(file), request);
  const [response] = await answered;
  const text = await readText(response);
  if (response.statusCode !== 201) throw new Error(`upload to ${url}: HTTP ${response.statusCode} ${text}`);
  return { ms: performance.now() - t0, body: JSON.parse(text) };
}

/** The app's upload route, with the headers the browser sends (same origin, session cookie). */
function uploadToApp(base, cookie, file, name) {
  const headers = { cookie, origin: base, 'content-type': 'text/csv', 'x-file-name': encodeURIComponent(name) };
  return postFile(`${base}/api/conversations/${randomUUID()}/files`, file, headers);
}

/** GETs `url` to its last byte; throws unless it is 200 with `expectBytes` bytes. */
async function download(url, headers, expectBytes) {
  const t0 = performance.now();
  const response = await new Promise((resolve, reject) => http.get(url, { headers }, resolve).on('error', reject));
  let bytes = 0;
  for await (const chunk of response) bytes += chunk.length;
  if (response.statusCode !== 200 || bytes !== expectBytes) throw new Error(`download ${url}: HTTP ${response.statusCode}, ${bytes} bytes`);
  return performance.now() - t0;
}

/** One unmeasured download (first-use costs), then DOWNLOAD_REPEAT timed ones: median MB/s. */
async function throughput(get) {
  await get();
  const times = [];
  for (let i = 0; i < DOWNLOAD_REPEAT; i += 1) times.push(await get());
  return { mbPerS: mbPerS(SIZE, median(times)), medianMs: round(median(times)), runsMs: times.map(round) };
}

/** Another client: `GET /` one after the other until stop(), which resolves with each one's ms. */
function probeLatency(base, cookie) {
  let stopped = false;
  const times = [];
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      const response = await fetch(`${base}/`, { headers: { cookie } });
      await response.arrayBuffer();
      times.push(performance.now() - t0);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return times;
  };
}

const latencySummary = (times) => ({ p50Ms: round(pct(times, 0.5)), p99Ms: round(pct(times, 0.99)), n: times.length });

// ---------------------------------------------------------------------------------------------
// Measures
// ---------------------------------------------------------------------------------------------

/** Random bytes (incompressible, and a hash no earlier upload has) written to `file`. */
function writeRandomFile(file, bytes) {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(1_000_000);
  for (let left = bytes; left > 0; left -= block.length) fs.writeSync(fd, randomFillSync(block), 0, Math.min(block.length, left));
  fs.closeSync(fd);
}

/**
 * UPLOAD_REPEAT uploads one after the other, `pid`'s memory watched during each: the median time
 * and the largest growth (a later upload can reuse memory an earlier one left resident).
 */
async function timedUploads(pid, send) {
  const runs = [];
  for (let i = 0; i < UPLOAD_REPEAT; i += 1) {
    const stop = watchMemory(pid);
    const { ms, body } = await send();
    const memory = stop();
    if (body.size !== SIZE) throw new Error(`the server stored ${body.size} bytes, not ${SIZE}`);
    runs.push({ ms: round(ms), ...memory, sha256: body.sha256 });
  }
  const ms = median(runs.map((r) => r.ms));
  return { ms, mbPerS: mbPerS(SIZE, ms), growthMb: Math.max(...runs.map((r) => r.growthMb)), peakResetOk: runs.every((r) => r.peakResetOk), sha256: runs.at(-1).sha256, runs };
}

/** The raw Node server's uploads: RSS growth and time, after a 1 MB warm-up. */
async function rawUploadBaseline(files, dir) {
  const server = await startChild('upload', PORTS.rawUpload, dir);
  try {
    await postFile(server.url, files.warm);
    return await timedUploads(server.pid, () => postFile(server.url, files.big));
  } finally {
    server.kill();
  }
}

async function rawDownloadBaseline(file) {
  const server = await startChild('files', PORTS.rawFiles, file);
  try {
    return await throughput(() => download(server.url, {}, SIZE));
  } finally {
    server.kill();
  }
}

/**
 * One app instance, one store: warm up (a 1 MB upload and its download, a few page loads), time
 * `GET /` with nothing else going on, then upload the 100 MB file while another guest loads `GET /`
 * and the server's memory is watched; then download the stored blob through the app.
 */
async function appUploadAndDownload(base, files) {
  const pid = nextServerPid(new URL(base).port);
  const cookie = await session(base);
  const probeCookie = await session(base);
  const warm = await uploadToApp(base, cookie, files.warm, 'bench-warm-up.csv');
  await download(`${base}/api/blobs/${warm.body.sha256}`, { cookie }, warm.body.size);
  for (let i = 0; i < 5; i += 1) await (await fetch(`${base}/`, { headers: { cookie: probeCookie } })).arrayBuffer();

  const stopIdle = probeLatency(base, probeCookie);
  await sleep(IDLE_PROBE_MS);
  const idle = latencySummary(await stopIdle());

  const stopBusy = probeLatency(base, probeCookie);
  const upload = await timedUploads(pid, () => uploadToApp(base, cookie, files.big, 'bench-100mb.csv'));
  const busy = latencySummary(await stopBusy());

  const stopDownloadMemory = watchMemory(pid);
  const downloaded = await throughput(() => download(`${base}/api/blobs/${upload.sha256}`, { cookie }, SIZE));
  return {
    upload,
    pageLatency: { idle, duringUpload: busy },
    download: { ...downloaded, memory: stopDownloadMemory() },
  };
}

/** Shared by every app this bench starts; the upload limits already admit 100 MB (see notes). */
function appEnv(port, fake, extra = {}) {
  return {
    PORT: String(port),
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'bench',
    RUNPAD_MODEL: 'bench',
    RUNPAD_DATA_DIR: tempDir(`app-${port}`),
    // 100 MB fits the defaults (1 GB per guest, 500 MB per conversation); raised anyway so the
    // warm-up and repeated runs against one data directory never meet a quota.
    RUNPAD_GUEST_STORAGE_BYTES: String(10 * SIZE),
    RUNPAD_CONVERSATION_STORAGE_BYTES: String(10 * SIZE),
    ...extra,
  };
}

async function withApp(port, env, measure) {
  const app = await startApp(port, env);
  onCleanup(app.kill);
  try {
    return await measure(`http://127.0.0.1:${port}`);
  } finally {
    app.kill();
    await waitClosed(port);
  }
}

/** Filesystem store: the app, and Next serving the same file from public/ (placed before start). */
async function filesystemStore(fake, files) {
  return withApp(PORTS.fsApp, appEnv(PORTS.fsApp, fake), async (base) => {
    const app = await appUploadAndDownload(base, files);
    const nextStatic = await throughput(() => download(`${base}/${path.basename(files.big)}`, {}, SIZE));
    return { ...app, nextStatic };
  });
}

/** S3 store (s3rver): the app, and the same object read straight from s3rver with the AWS SDK. */
async function s3Store(fake, files) {
  const s3rver = await startChild('s3', PORTS.s3rver, tempDir('s3rver'));
  try {
    const s3Env = { S3_BUCKET: S3.bucket, S3_ENDPOINT: s3rver.url, S3_ACCESS_KEY_ID: S3.accessKeyId, S3_SECRET_ACCESS_KEY: S3.secretAccessKey };
    const app = await withApp(PORTS.s3App, appEnv(PORTS.s3App, fake, s3Env), (base) => appUploadAndDownload(base, files));
    const direct = await throughput(() => s3Get(s3rver.url, `blobs/${app.upload.sha256}`));
    return { ...app, s3rverDirect: direct };
  } finally {
    s3rver.kill();
  }
}

async function s3Get(endpoint, key) {
  const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3, responseChecksumValidation: 'WHEN_REQUIRED' });
  const t0 = performance.now();
  const object = await client.send(new GetObjectCommand({ Bucket: S3.bucket, Key: key }));
  let bytes = 0;
  for await (const chunk of object.Body) bytes += chunk.length;
  if (bytes !== SIZE) throw new Error(`s3rver returned ${bytes} bytes`);
  return performance.now() - t0;
}

// ---- simultaneous chat streams --------------------------------------------------------------

/** bench/route.mjs's concurrency scenario: 600 characters, 10 ms between the model's chunks. */
const STREAM_TEXT = Array.from({ length: 2000 }, (_, i) => `w${i % 10}`).join(' ').slice(0, 600);
const STREAM_TRIGGER = 'bench-storage-concurrent';

function chatBody(text) {
  return JSON.stringify({ id: randomUUID(), message: { id: randomUUID(), role: 'user', parts: [{ type: 'text', text }] } });
}

/** One chat stream read to the end: the gaps between its chunks; throws unless it finished. */
async function chatStream(base, cookie) {
  const response = await fetch(`${base}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: chatBody(STREAM_TRIGGER) });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const decoder = new TextDecoder();
  const gaps = [];
  let last = null;
  let text = '';
  for await (const chunk of response.body) {
    const now = performance.now();
    if (last !== null) gaps.push(now - last);
    last = now;
    text += decoder.decode(chunk, { stream: true });
  }
  // A stream can end with HTTP 200 yet carry an error part, or stop short of its finish part.
  if (text.includes('"type":"error"') || !text.includes('"type":"finish"')) throw new Error('the stream did not finish cleanly');
  return gaps;
}

/** `STREAMS` streams at once, spread evenly over `bases`, all as one guest; gaps pooled. */
async function simultaneousStreams(bases, cookie) {
  const t0 = performance.now();
  const outcomes = await Promise.allSettled(Array.from({ length: STREAMS }, (_, i) => chatStream(bases[i % bases.length], cookie)));
  const ok = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
  const errors = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason?.message ?? o.reason));
  const gaps = ok.flat();
  return {
    instances: bases.length,
    streams: STREAMS,
    completed: ok.length,
    errors: errors.length,
    errorKinds: [...new Set(errors)].slice(0, 5),
    wallMs: round(performance.now() - t0),
    chunkGapP50Ms: round(pct(gaps, 0.5)),
    chunkGapP99Ms: round(pct(gaps, 0.99)),
  };
}

/** Starts one app per port on the shared database and Redis, warms each up, runs the streams. */
async function streamsOn(ports, fake, shared) {
  const apps = [];
  try {
    for (const port of ports) {
      const app = await startApp(port, appEnv(port, fake, shared));
      onCleanup(app.kill);
      apps.push(app);
    }
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    // The cookie from one instance is used on all of them (same AUTH_SECRET): one guest.
    const cookie = await session(bases[0]);
    for (const base of bases) for (let i = 0; i < 3; i += 1) await chatStream(base, cookie);
    const result = await simultaneousStreams(bases, cookie);
    return { ...result, serverRssMb: ports.map((port) => Math.round(memory(nextServerPid(port)).rss)) };
  } finally {
    for (const app of apps) app.kill();
    for (const port of ports) await waitClosed(port);
  }
}

/** A fresh Postgres database for both runs (as e2e/instances.spec.ts makes one), dropped after. */
async function chatStreams(fake) {
  const { default: postgres } = await import('postgres');
  const database = `runpad_bench_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    await admin.unsafe(`create database ${database}`);
  } catch (error) {
    await admin.end();
    return { skipped: `no Postgres server at ${ADMIN_URL} (${error.message})` };
  }
  let dropped = false;
  const dropDatabase = async () => {
    if (dropped) return;
    dropped = true;
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  };
  onCleanup(dropDatabase);
  fake.addScenarios([{ trigger: STREAM_TRIGGER, chunkDelayMs: 10, steps: [{ text: STREAM_TEXT }] }]);
  const shared = {
    DATABASE_URL: Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).href,
    REDIS_URL,
    AUTH_SECRET: 'bench-storage-secret-bench-storage-secret',
  };
  try {
    const one = await streamsOn([PORTS.instanceA], fake, shared);
    const two = await streamsOn([PORTS.instanceA, PORTS.instanceB], fake, shared);
    return { database: 'Postgres (fresh database, dropped after)', redis: REDIS_URL, one, two };
  } finally {
    await dropDatabase();
  }
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const ratio = (a, b) => (b ? `${Math.round((a / b) * 100) / 100}×` : '—');
const signed = (x) => `${x >= 0 ? '+' : ''}${round(x)}`;

const growths = (upload) => upload.runs.map((r) => `+${r.growthMb} from ${Math.round(r.beforeMb)}`).join(', ');

function storeRows(label, store, raw, downloadBaseline) {
  const up = store.upload;
  const lat = store.pageLatency;
  return [
    `| 100 MB upload, ${label}: server RSS growth (largest of ${up.runs.length}) | +${up.growthMb} MB (runs ${growths(up)}) | raw Node server +${raw.growthMb} MB (runs ${growths(raw)}) | ${signed(up.growthMb - raw.growthMb)} MB | ≤ 64 MB growth |`,
    `| 100 MB upload, ${label}: time (median) | ${up.ms} ms (${up.mbPerS} MB/s) | raw Node server ${raw.ms} ms (${raw.mbPerS} MB/s) | ${ratio(up.ms, raw.ms)} | — |`,
    `| \`GET /\` latency from another guest during those uploads | p99 ${lat.duringUpload.p99Ms} ms, p50 ${lat.duringUpload.p50Ms} ms (n ${lat.duringUpload.n}) | no upload: p99 ${lat.idle.p99Ms} ms, p50 ${lat.idle.p50Ms} ms (n ${lat.idle.n}) | p99 ${ratio(lat.duringUpload.p99Ms, lat.idle.p99Ms)} | — |`,
    `| 100 MB download, ${label} (blob route) | ${store.download.mbPerS} MB/s (${store.download.medianMs} ms); RSS +${store.download.memory.growthMb} MB | ${downloadBaseline.label} ${downloadBaseline.mbPerS} MB/s | ${ratio(store.download.mbPerS, downloadBaseline.mbPerS)} | — |`,
  ];
}

function streamRow(s) {
  const two = s.two;
  const one = s.one;
  return `| ${STREAMS} simultaneous chat streams, two instances (${STREAMS / 2} each) on one Postgres + Redis | ${two.completed} completed, ${two.errors} errors; chunk gap p50 ${two.chunkGapP50Ms} ms, p99 ${two.chunkGapP99Ms} ms; all done in ${round(two.wallMs / 1000)} s; RSS ${two.serverRssMb.join(' + ')} MB | one instance: ${one.completed} completed, ${one.errors} errors; p50 ${one.chunkGapP50Ms} ms, p99 ${one.chunkGapP99Ms} ms; all done in ${round(one.wallMs / 1000)} s; RSS ${one.serverRssMb[0]} MB | p99 ${ratio(two.chunkGapP99Ms, one.chunkGapP99Ms)} | 0 errors |`;
}

function notes(r) {
  const fsStore = r.filesystem;
  return [
    `- Sizes: "100 MB" is ${SIZE.toLocaleString('en-US')} bytes of random data, exactly the default per-file upload limit (\`RUNPAD_UPLOAD_FILE_BYTES\`; the route refuses only more). RUNPAD_GUEST_STORAGE_BYTES and RUNPAD_CONVERSATION_STORAGE_BYTES are set to ${(10 * SIZE).toLocaleString('en-US')} (the defaults, 1 GB and 500 MB, would also admit it). MB/s is 10^6 bytes per second.`,
    '- Uploads go to `POST /api/conversations/<new uuid>/files` as the browser sends them (components/files/upload-request.ts): the raw bytes with Content-Length, `x-file-name`, `content-type: text/csv`, `Origin` of the app and the session cookie from `GET /`, from a Node `http.request` piping the file. Time is request start → the 201 answer read, median of the uploads. Each app first gets an unmeasured 1 MB upload and download (first use loads the route and the store), so the growth is the upload\'s, not the route\'s first load.',
    `- Server RSS growth: ${UPLOAD_REPEAT} uploads one after the other, each of new content (the file with its first 8 bytes randomized, so no store skips one as a duplicate). For each, the next-server process (found in /proc by its command line and PORT) has its peak-RSS mark reset (\`5 > /proc/<pid>/clear_refs\`) when the upload starts; growth = VmHWM after the answer − VmRSS at the start (also sampled every 20 ms; the larger counts). Reset worked: ${fsStore.upload.peakResetOk && r.s3?.upload?.peakResetOk !== false ? 'yes' : 'no (sampled only)'}. "runs +a from b" is each upload's growth and the RSS (MB) it started from: growth depends on how much already-resident memory the process can reuse (garbage not yet collected, heap grown earlier), so the largest is reported.`,
    '- Upload baseline: a raw Node `http` server in a child process of this script (so its RSS is read the same way and its work does not share an event loop with the clients) that pipes the request through SHA-256 into a file opened with `flush: true` (fsync before close): the same spool, hash and fsync the filesystem store does, without Next, the session, the database or the store\'s rename. The same baseline stands for the S3 rows: no raw S3 upload baseline was run.',
    `- \`GET /\` latency: a second guest loads \`GET /\` (full page, read to the last byte) one request after the other, first for ${IDLE_PROBE_MS / 1000} s with nothing else going on, then for as long as the 100 MB uploads run. n is the number of page loads in each window.`,
    `- Downloads: \`GET /api/blobs/<sha256>\` with the owner's cookie, read to the last byte by Node \`http.get\`; one unmeasured, then the median of ${DOWNLOAD_REPEAT}. Filesystem-store baseline: Next itself serving the same file from \`public/\` (copied there before \`next start\`, removed after; raw fs.createReadStream server in the same run: ${r.rawDownload.mbPerS} MB/s, Next static: ${fsStore.nextStatic.mbPerS} MB/s). S3 baseline: the same object read straight from s3rver with the AWS SDK (${r.s3 ? `${r.s3.s3rverDirect.mbPerS} MB/s` : 'not run'}), i.e. what the store can give before the app adds anything.`,
    '- The S3 store is s3rver (the S3-compatible server the tests use, lib/testing/s3-server.ts), in a child process on a temp directory, with the app started with S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY as e2e/instances.spec.ts does. The S3 store spools the upload to a local file, hashes it, then sends one PutObject: the upload time includes that second pass. Both upload apps use the default embedded PGlite database.',
    `- Chat streams: bench/route.mjs's concurrency scenario (the fake model streams 600 characters in 6-character chunks (its default), 10 ms apart) sent ${STREAMS} times at once as one guest (same AUTH_SECRET on both instances, the cookie from the first), alternating between the instances; 3 unmeasured streams per instance first. A stream counts as an error when the response is not 200 or its body has an error part or no finish part. Chunk gaps are the times between consecutive body chunks arriving at the client, pooled over all streams. "All done in" is the first request sent → the last stream ended. RSS is each next-server's after the run. Both runs use the same fresh Postgres database (\`runpad_bench_<random>\`, dropped at the end) and Redis at ${REDIS_URL}; the two instances share this machine's ${os.cpus().length} cores, so the second instance adds no CPU.`,
  ];
}

function writeMarkdown(r) {
  const lines = [
    '# Storage and multi-instance benchmark results',
    '',
    `Run on ${r.date} · ${r.machine} · Node ${r.node} · 1-minute load average ${r.loadAverage.start.toFixed(1)} at the start, ${r.loadAverage.end.toFixed(1)} at the end.`,
    '',
    'Reproduce: `npm run build && node bench/storage.mjs` (Postgres at 127.0.0.1:5432 with trust auth, or TEST_DATABASE_URL; Redis at 127.0.0.1:6379, or REDIS_URL). Raw numbers: `bench/out/*-storage.json`.',
    '',
    '| measure | app | baseline (same run) | ratio or overhead | target |',
    '| --- | --- | --- | --- | --- |',
    ...storeRows('filesystem store', r.filesystem, r.rawUpload, { label: 'Next static file', mbPerS: r.filesystem.nextStatic.mbPerS }),
    ...(r.s3 ? storeRows('S3 store (s3rver)', r.s3, r.rawUpload, { label: 's3rver direct', mbPerS: r.s3.s3rverDirect.mbPerS }) : []),
    r.streams.skipped ? `| ${STREAMS} simultaneous chat streams, two instances | not measured: ${r.streams.skipped} | — | — | 0 errors |` : streamRow(r.streams),
    '',
    'Notes:',
    ...notes(r),
    ...(r.problems.length > 0 ? r.problems.map((p) => `- Not measured: ${p}`) : []),
    '',
  ];
  fs.writeFileSync('bench/RESULTS-storage.md', lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

let tempRoot = null;
function tempDir(name) {
  return fs.mkdtempSync(path.join(tempRoot, `${name}-`));
}

/** Runs one section; a failure is recorded (and the run goes on) rather than losing the others. */
async function section(results, name, run) {
  console.log(`${name}…`);
  try {
    return await run();
  } catch (error) {
    results.problems.push(`${name}: ${error.message}`);
    console.error(`${name} failed:`, error);
    return null;
  }
}

async function main() {
  tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-storage-'));
  onCleanup(() => fs.rmSync(tempRoot, { recursive: true, force: true }));
  // The big file lives in public/ from before the first `next start`, so Next serves it as static.
  const files = { big: path.resolve('public', `bench-storage-${randomUUID().slice(0, 8)}.bin`), warm: path.join(tempRoot, 'warm.bin') };
  onCleanup(() => fs.rmSync(files.big, { force: true }));
  writeRandomFile(files.big, SIZE);
  writeRandomFile(files.warm, 1_000_000);
  const fake = await startFakeOpenAI({ port: PORTS.fakeModel });
  onCleanup(() => fake.close());

  const results = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.type()} ${os.release()}`, node: process.version, loadAverage: { start: os.loadavg()[0] }, sizeBytes: SIZE, problems: [] };
  results.rawUpload = await section(results, 'raw upload baseline', () => rawUploadBaseline(files, tempDir('raw-upload')));
  results.rawDownload = await section(results, 'raw download baseline', () => rawDownloadBaseline(files.big));
  results.filesystem = await section(results, 'filesystem store', () => filesystemStore(fake, files));
  results.s3 = await section(results, 'S3 store', () => s3Store(fake, files));
  results.streams = (await section(results, 'chat streams', () => chatStreams(fake))) ?? { skipped: 'failed (see below)' };
  results.loadAverage.end = os.loadavg()[0];
  return results;
}

async function run() {
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => cleanUp().finally(() => process.exit(130)));
  let results;
  try {
    results = await main();
  } finally {
    await cleanUp();
  }
  fs.mkdirSync('bench/out', { recursive: true });
  fs.writeFileSync(`bench/out/${results.date.slice(0, 19).replace(/:/g, '-')}-storage.json`, JSON.stringify(results, null, 2));
  if (results.rawUpload && results.rawDownload && results.filesystem) writeMarkdown(results);
  else console.error('RESULTS-storage.md not written: a baseline or the filesystem store could not be measured');
  console.log(JSON.stringify(results, null, 2));
}

if (process.argv[2] === '--serve') await serveChild(process.argv[3], Number(process.argv[4]), process.argv[5]);
else await run();
