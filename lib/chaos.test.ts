/**
 * Chaos that loses nothing (issue 24), against real servers this file starts and breaks: its own
 * Postgres cluster and redis-server (own ports, own data; never the machine's 5432 or 6379) and a
 * filesystem blob store on a 1 MB tmpfs. For each fault: what was acknowledged is not lost, what
 * was not is refused in words, nothing is left half-stored, the app recovers without a restart,
 * and the failure is logged once with its cause.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type DbHandle } from '@/lib/db/client';
import { createConversation } from '@/lib/db/queries/conversations';
import { listFiles } from '@/lib/db/queries/files';
import { listMessages } from '@/lib/db/queries/messages';
import { ensureUser } from '@/lib/db/queries/users';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store';
import { AnswerDraft } from '@/lib/chat/answer-drafts';
import { storeUpload } from '@/lib/files/store-upload';
import { toAppError } from '@/lib/http/to-app-error';
import { ownPostgresUnavailable, ownRedisUnavailable, startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from '@/lib/testing/own-servers';

const PG_PORT = 25_710; // below the ephemeral range (32768+), where a client socket may hold a port
const REDIS_PORT = 25_711;
const skipPostgres = ownPostgresUnavailable();
if (skipPostgres) console.warn(`chaos tests skipped: ${skipPostgres}`);

/** A logger whose lines the test reads. */
function capturedLog() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

async function* bytes(parts: string[], between?: () => Promise<void>) {
  for (const [index, part] of parts.entries()) {
    yield new TextEncoder().encode(part);
    if (index === 0) await between?.();
  }
}

describe.skipIf(skipPostgres)('Postgres restarted', () => {
  let pg: OwnPostgres;
  let handle: DbHandle;
  const user = crypto.randomUUID();
  let conversationId: string;
  let blobDir: string;

  beforeAll(async () => {
    blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chaos-blobs-'));
    pg = await startOwnPostgres(PG_PORT);
    handle = await createDb({ url: pg.url });
    await ensureUser(handle.db, user);
    conversationId = (await createConversation(handle.db, user, {})).id;
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    await pg?.close();
    if (blobDir) fs.rmSync(blobDir, { recursive: true, force: true });
  });

  it('mid-answer: the answer the user read is stored once the database is back, on the same connection pool, logged once', async () => {
    const { log, lines } = capturedLog();
    const draft = new AnswerDraft(handle.db, user, conversationId, null, log);
    const answer: UIMessage = { id: crypto.randomUUID(), role: 'assistant', parts: [{ type: 'text', text: 'The answer the user already read.' }] };
    await pg.stop();
    const storing = draft.finish(answer);
    // The write is failing and waiting now; the database comes back.
    await vi.waitFor(() => expect(lines.some((l) => l.msg === 'database unavailable: retrying until it is back')).toBe(true), { timeout: 20_000 });
    await pg.start();
    await storing;
    const stored = await listMessages(handle.db, conversationId);
    expect(stored.find((m) => m.id === answer.id)?.parts).toEqual(answer.parts);
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0].err)).toMatch(/ECONNREFUSED|57P01|terminat|CONNECTION/i);
    expect(lines.some((l) => l.msg === 'database back: stored after retrying')).toBe(true);
  }, 90_000);

  it('mid-upload: refused in words, no file half-stored, and the same upload succeeds once it is back', async () => {
    const store = createFsBlobStore(blobDir);
    const target = { userId: user, conversationId };
    const file = { name: 'sales.csv', mediaType: 'text/csv' };
    const limits = { maxBytes: 1_000_000, tooLarge: 'too large' };
    const failed = await storeUpload(handle.db, store, target, file, bytes(['a,b\n', '1,2\n'], () => pg.stop()), limits).then(
      () => null,
      (error: unknown) => toAppError(error),
    );
    expect(failed?.code).toBe('database:unavailable');
    expect(failed?.status).toBe(503);
    expect(failed?.message).toContain('nothing was stored');
    await pg.start();
    // Nothing half-stored: no file refers to bytes the database never recorded.
    expect(await listFiles(handle.db, conversationId)).toEqual([]);
    const stored = await storeUpload(handle.db, store, target, file, bytes(['a,b\n', '1,2\n']), limits);
    expect(stored).toMatchObject({ name: 'sales.csv', size: 8 });
    expect((await listFiles(handle.db, conversationId)).map((f) => f.name)).toEqual(['sales.csv']);
  }, 90_000);
});

const canMount = process.getuid?.() === 0 && process.platform === 'linux';
describe.skipIf(!canMount || skipPostgres)('the filesystem blob store out of space', () => {
  let pg: OwnPostgres;
  let handle: DbHandle;
  const user = crypto.randomUUID();
  let conversationId: string;
  let mount: string;

  beforeAll(async () => {
    mount = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chaos-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
    pg = await startOwnPostgres(PG_PORT + 2);
    handle = await createDb({ url: pg.url });
    await ensureUser(handle.db, user);
    conversationId = (await createConversation(handle.db, user, {})).id;
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    await pg?.close();
    if (!mount) return;
    execFileSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  it('refuses the upload in words, keeps no partial file, and takes uploads again once there is room', async () => {
    const store = createFsBlobStore(path.join(mount, 'blobs'));
    const target = { userId: user, conversationId };
    const big = Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024)); // 2.5 MB into 1 MB
    const failed = await storeUpload(handle.db, store, target, { name: 'big.csv', mediaType: 'text/csv' }, bytes(big), { maxBytes: 10_000_000, tooLarge: 'too large' }).then(
      () => null,
      (error: unknown) => toAppError(error),
    );
    expect(failed).toMatchObject({ code: 'blobs:full', status: 507 });
    expect(failed?.message).toContain('nothing was stored');
    expect(await listFiles(handle.db, conversationId)).toEqual([]);
    // No partial bytes left behind: the space is free again.
    const leftovers = fs.readdirSync(path.join(mount, 'blobs'), { recursive: true }).filter((entry) => fs.statSync(path.join(mount, 'blobs', String(entry))).isFile());
    expect(leftovers).toEqual([]);
    const small = await storeUpload(handle.db, store, target, { name: 'small.csv', mediaType: 'text/csv' }, bytes(['a\n1\n']), { maxBytes: 10_000_000, tooLarge: 'too large' });
    expect(small.name).toBe('small.csv');
  }, 90_000);
});

const skipRedis = ownRedisUnavailable() ?? skipPostgres;
describe.skipIf(skipRedis)('GET /api/health names the dependency that is down', () => {
  let pg: OwnPostgres;
  let redis: OwnRedis;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chaos-health-'));
    redis = await startOwnRedis(REDIS_PORT);
    pg = await startOwnPostgres(PG_PORT + 4);
    vi.stubEnv('DATABASE_URL', pg.url);
    vi.stubEnv('REDIS_URL', redis.url);
    vi.stubEnv('RUNPAD_DATA_DIR', dataDir);
    vi.stubEnv('S3_BUCKET', '');
    vi.resetModules();
  }, 120_000);
  afterAll(async () => {
    const app = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadBlobStore?: unknown };
    const opened = app.runpadDb;
    app.runpadDb = undefined;
    app.runpadBlobStore = undefined;
    await opened?.then((h) => h.close()).catch((error: unknown) => console.warn('app database not closed', error));
    vi.unstubAllEnvs();
    await redis?.close();
    await pg?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function health() {
    const { GET } = await import('@/app/api/health/route');
    const response = await GET(new Request('http://app.test/api/health'));
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  it('says redis when Redis stops, database when Postgres stops, and ok again when each is back, without a restart', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', database: 'ok', blobStore: 'ok', redis: 'ok' } });
    await redis.stop();
    const { log, lines } = capturedLog();
    (globalThis as unknown as { runpadLogger?: pino.Logger }).runpadLogger = log;
    const redisDown = await health();
    // Logged once with its cause (the probe), and the answer's refusal names what is down.
    expect(lines.filter((l) => l.check === 'redis')).toHaveLength(1);
    expect(JSON.stringify(lines.find((l) => l.check === 'redis')?.err)).toContain('ECONNREFUSED');
    expect(lines.find((l) => l.msg === 'request refused')).toMatchObject({ status: 503, reason: 'unavailable: redis' });
    expect(redisDown.status).toBe(503);
    expect(redisDown.body).toMatchObject({ status: 'unavailable', database: 'ok', blobStore: 'ok' });
    expect(redisDown.body.redis).not.toBe('ok');
    await redis.start();
    expect((await health()).body.redis).toBe('ok');

    await pg.stop();
    const databaseDown = await health();
    expect(databaseDown.status).toBe(503);
    expect(databaseDown.body.database).not.toBe('ok');
    expect(databaseDown.body.redis).toBe('ok');
    await pg.start();
    await vi.waitFor(async () => expect((await health()).status).toBe(200), { timeout: 20_000, interval: 500 });
  }, 120_000);
});
