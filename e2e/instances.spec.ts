import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { startS3TestServer } from '../lib/blobs/s3-test-server';
import { addScenarios, FAKE_MODEL } from './helpers';

/**
 * Two app instances on one Postgres, one Redis and one S3-compatible store (the deployment the
 * README describes) serve the same guest: a conversation started on one continues on the other,
 * and a file uploaded to one is read from the other (with Range).
 */
test.describe.configure({ mode: 'serial' });

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ports = [3192, 3193];
const database = `runpad_e2e_${Math.random().toString(36).slice(2, 10)}`;
const servers: ChildProcess[] = [];
let s3: Awaited<ReturnType<typeof startS3TestServer>> | null = null;
let skip: string | null = null;

test.beforeAll(async () => {
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    await admin.unsafe(`create database ${database}`);
  } catch (error) {
    skip = `no Postgres server (${(error as Error).message})`;
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

const at = (port: number, route: string) => `http://127.0.0.1:${port}${route}`;

test('a conversation and its file started on one instance continue on the other', async () => {
  // Needs the Postgres server (127.0.0.1:5432 here and on CI); without one there is nothing to share.
  test.skip(skip !== null, skip ?? '');
  const [a, b] = ports;
  const guest = await playwrightRequest.newContext();
  expect((await guest.get(at(a, '/'))).status()).toBe(200); // the cookie; valid on both (same secret, same host)
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
