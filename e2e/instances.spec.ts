import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { expect, request as playwrightRequest, test } from './test';
import { startS3TestServer } from '../lib/testing/s3-server';
import { skipOutsideCi } from '../lib/testing/required';
import { addScenarios, FAKE_MODEL } from './helpers';
import { e2ePort } from './ports';

/**
 * Two app instances on one Postgres, one Redis and one S3-compatible store (the deployment
 * docs/OPERATING.md describes) serve the same guest: a conversation started on one continues on the other,
 * and a file uploaded to one is read from the other (with Range).
 */
test.describe.configure({ mode: 'serial' });

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ports = [e2ePort(3188), e2ePort(3189)];
const database = `runpad_e2e_${Math.random().toString(36).slice(2, 10)}`;
const servers: ChildProcess[] = [];
let s3: Awaited<ReturnType<typeof startS3TestServer>> | null = null;
let skip: string | null = null;

test.beforeAll(async () => {
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    await admin.unsafe(`create database ${database}`);
  } catch (error) {
    // A failure under CI=true (lib/testing/required.ts), a skip elsewhere.
    skip = skipOutsideCi(`no Postgres server (${(error as Error).message})`);
    return;
  } finally {
    await admin.end();
  }
  s3 = await startS3TestServer('runpad-instances');
  const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).href;
  for (const port of ports) {
    const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        DATABASE_URL: url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AUTH_SECRET: 'instances-secret-instances-secret-012345',
        RUNPAD_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `runpad-instance-${port}-`)),
        OPENAI_BASE_URL: `${FAKE_MODEL}/v1`,
        OPENAI_API_KEY: 'test-key',
        RUNPAD_MODEL: 'fake-model',
        RUNPAD_MODEL_REQUESTS_PER_MINUTE: '1000',
        RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: '1000',
        RUNPAD_LOG_LEVEL: 'error',
      },
    });
    servers.push(child);
  }
  for (const port of ports) {
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status ?? 0, { timeout: 90_000 }).toBe(200);
  }
});

test.afterAll(async () => {
  for (const child of servers) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await s3?.stop();
  if (skip) return;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.end();
});

// Every test here needs the Postgres server (127.0.0.1:5432 here and on CI); without one there is
// nothing two instances could share, and each test is skipped saying so.
test.beforeEach(() => {
  if (skip !== null) test.skip(true, skip);
});

const at = (port: number, route: string) => `http://127.0.0.1:${port}${route}`;

/** A guest with its cookie (valid on every instance: same secret, same host), also as a header for fetch. */
async function newGuest(port: number) {
  const guest = await playwrightRequest.newContext();
  expect((await guest.get(at(port, '/'))).status()).toBe(200);
  const cookie = (await guest.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { guest, cookie };
}

test('a conversation and its file started on one instance continue on the other', async () => {
  const [a, b] = ports;
  const { guest } = await newGuest(a);
  const stamp = Date.now();
  await addScenarios([
    { trigger: `e2e-instance-a-${stamp}`, steps: [{ text: 'Answered by A.' }] },
    { trigger: `e2e-instance-b-${stamp}`, steps: [{ text: 'Answered by B.' }] },
  ]);
  const id = crypto.randomUUID();
  const first = await guest.post(at(a, '/api/chat'), { data: { id, message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: `On A. e2e-instance-a-${stamp}` }] } } });
  expect(first.status()).toBe(200);
  await first.body();
  const content = `n\n${'1\n'.repeat(1000)}`;
  const upload = await guest.post(at(a, `/api/conversations/${id}/files`), { headers: { 'x-file-name': 'ones.csv', 'content-type': 'application/octet-stream' }, data: Buffer.from(content) });
  expect(upload.status()).toBe(201);
  const { sha256 } = (await upload.json()) as { sha256: string };

  // Instance B reads what A stored: messages from Postgres, bytes from the shared store.
  const onB = (await (await guest.get(at(b, `/api/conversations/${id}`))).json()) as { messages: Array<{ id: string }> };
  expect(onB.messages.map((m) => m.id)[0]).toBe('u1');
  expect(await (await guest.get(at(b, `/api/blobs/${sha256}`))).text()).toBe(content);
  const ranged = await guest.get(at(b, `/api/blobs/${sha256}`), { headers: { range: 'bytes=0-1' } });
  expect(ranged.status()).toBe(206);
  expect(await ranged.text()).toBe('n\n');

  const known = onB.messages.map((m) => m.id);
  const second = await guest.post(at(b, '/api/chat'), { data: { id, knownMessageIds: known, message: { id: 'u2', role: 'user', parts: [{ type: 'text', text: `On B. e2e-instance-b-${stamp}` }] } } });
  expect(second.status()).toBe(200);
  await second.body();
  await expect
    .poll(async () => ((await (await guest.get(at(a, `/api/conversations/${id}`))).json()) as { messages: Array<{ role: string; parts: Array<{ text?: string }> }> }).messages.map((m) => m.parts.find((p) => p.text)?.text ?? ''))
    .toEqual([`On A. e2e-instance-a-${stamp}`, 'Answered by A.', `On B. e2e-instance-b-${stamp}`, 'Answered by B.']);
  await guest.dispose();
});

test('an answer being written on one instance is resumed from the other, from its first chunk (Redis)', async () => {
  const [a, b] = ports;
  const { guest, cookie } = await newGuest(a);
  const trigger = `e2e-instance-resume-${Date.now()}`;
  const answer = 'Written on A, read on B: alpha beta gamma delta epsilon zeta eta theta.';
  await addScenarios([{ trigger, chunkDelayMs: 150, chunkChars: 3, steps: [{ text: answer }] }]);
  const id = crypto.randomUUID();
  const headers = { cookie, 'content-type': 'application/json', origin: at(a, '') };
  const onA = await fetch(at(a, '/api/chat'), { method: 'POST', headers, body: JSON.stringify({ id, message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: `Slowly. ${trigger}` }] } }) });
  expect(onA.status).toBe(200);
  const reader = onA.body!.getReader();
  // The first chunk from A: the answer is being written (and registered in Redis) now.
  await reader.read();

  const fromB = await fetch(at(b, `/api/chat/${id}/stream`), { headers: { cookie } });
  expect(fromB.status).toBe(200);
  const resumed = await fromB.text();
  const deltas = [...resumed.matchAll(/"delta":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join('');
  expect(deltas).toBe(answer);
  while (!(await reader.read()).done) {
    // drain A's copy
  }
  // Once the answer is done nothing is live: B answers 204.
  await expect.poll(async () => (await fetch(at(b, `/api/chat/${id}/stream`), { headers: { cookie } })).status).toBe(204);
  await guest.dispose();
});

test('a 100 MB dataset streams into the shared S3 store through one instance and back out of the other, byte for byte', async () => {
  const [a, b] = ports;
  const { guest, cookie } = await newGuest(a);
  const trigger = `e2e-instance-large-${Date.now()}`;
  await addScenarios([{ trigger, steps: [{ text: 'Ready for the data.' }] }]);
  const id = crypto.randomUUID();
  const started = await guest.post(at(a, '/api/chat'), { data: { id, message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: `Big file next. ${trigger}` }] } } });
  expect(started.status()).toBe(200);
  await started.body();

  // 100 MB generated as it is sent (never whole in this process either), hashed on the way.
  const size = 100_000_000;
  const rows = Array.from({ length: 40_000 }, (_, i) => `${i},${(i * 7919) % 10007},region-${i % 13}`).join('\n');
  const block = Buffer.from(`${rows}\n`);
  const sent = createHash('sha256');
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= size) return controller.close();
      const chunk = block.subarray(0, Math.min(block.length, size - offset));
      offset += chunk.length;
      sent.update(chunk);
      controller.enqueue(new Uint8Array(chunk));
    },
  });
  const upload = await fetch(at(a, `/api/conversations/${id}/files`), {
    method: 'POST',
    headers: { cookie, origin: at(a, ''), 'x-file-name': 'big.csv', 'content-type': 'application/octet-stream', 'content-length': String(size) },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(upload.status).toBe(201);
  const { sha256 } = (await upload.json()) as { sha256: string };
  expect(sha256).toBe(sent.digest('hex'));

  // Served as stored, even to a client that accepts gzip.
  const download = await fetch(at(b, `/api/blobs/${sha256}`), { headers: { cookie, 'accept-encoding': 'gzip, br' } });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-encoding')).toBeNull();
  const received = createHash('sha256');
  let length = 0;
  for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
    received.update(chunk);
    length += chunk.length;
  }
  expect(length).toBe(size);
  expect(received.digest('hex')).toBe(sha256);
  await guest.dispose();
});
