/**
 * Chaos that loses nothing, against real servers this file starts and breaks: its own
 * Postgres cluster and redis-server (own ports, own data; never the machine's 5432 or 6379) and a
 * filesystem blob store on a 1 MB tmpfs. For each fault: what was acknowledged is not lost, what
 * was not is refused in words, nothing is left half-stored, the app recovers without a restart,
 * and the failure is logged once with its cause.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type DbHandle } from '@/lib/db/client.server';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { listFiles } from '@/lib/files/file-queries.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import { AnswerDraft } from '@/lib/chat/answer-drafts.server';
import { storeUpload } from '@/lib/files/store-upload.server';
import { toAppError } from '@/lib/http/to-app-error.server';
import { capturedLog } from '@/lib/testing/captured-log';
import type { Logger } from '@/lib/log/logger.server';
import { ownPostgresUnavailable, ownRedisUnavailable, startFaultyProxy, startOwnPostgres, startOwnRedis, type FaultyProxy, type OwnPostgres, type OwnRedis } from '@/lib/testing/own-servers';
import { createS3BlobStore } from '@/lib/blobs/s3-blob-store.server';
import { readWhole } from '@/lib/blobs/read-whole.server';
import { startS3TestServer, type S3TestServer } from '@/lib/testing/s3-server';
import { skipOutsideCi } from '@/lib/testing/required';
import { APP_VERSION } from '@/lib/version.server';

const PG_PORT = 25_710; // below the ephemeral range (32768+), where a client socket may hold a port
const REDIS_PORT = 25_711;

/**
 * One Postgres cluster for the whole file (initdb and a start cost seconds of CPU each): each part
 * below opens it for its own person and conversations, and one that stops it starts it again
 * before it ends; it is removed after the last.
 */
let cluster: Promise<OwnPostgres> | undefined;
const ownCluster = () => (cluster ??= startOwnPostgres(PG_PORT));
afterAll(async () => {
  await (await cluster?.catch(() => undefined))?.close();
});

/**
 * The model, for the chats below: each request streams what the test pushes into it, so a fault
 * can be made between two chunks the page has already read and the next ones.
 */
const model = vi.hoisted(() => {
  const answers: Array<ReadableStreamDefaultController<unknown>> = [];
  return { answers };
});
vi.mock('@/lib/ai/provider.server', () => ({
  getLanguageModel: async () => ({
    specificationVersion: 'v4',
    provider: 'chaos',
    modelId: 'scripted',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('not used');
    },
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          model.answers.push(controller);
        },
      }),
    }),
  }),
}));
const skipPostgres = ownPostgresUnavailable();
if (skipPostgres) console.warn(`chaos tests skipped: ${skipPostgres}`);

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
    pg = await ownCluster();
    handle = await createDb({ url: pg.url });
    await ensureUser(handle.db, user);
    conversationId = (await createConversation(handle.db, user, {})).id;
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    if (blobDir) fs.rmSync(blobDir, { recursive: true, force: true });
  });

  it('mid-answer: the answer the user read is stored once the database is back, on the same connection pool, logged once', async () => {
    const { log, lines } = capturedLog();
    const draft = new AnswerDraft(handle.db, user, conversationId, null, log);
    const answer: UIMessage = { id: crypto.randomUUID(), role: 'assistant', parts: [{ type: 'text', text: 'The answer the user already read.' }] };
    await pg.stop();
    const storing = draft.finish(answer);
    // The write is failing and waiting now; the database comes back.
    await vi.waitFor(() => expect(lines.some((l) => l.msg === 'database unavailable: retrying until it is back')).toBe(true), { timeout: 60_000 });
    await pg.start();
    await storing;
    const stored = await listMessages(handle.db, conversationId);
    expect(stored.find((m) => m.id === answer.id)?.parts).toEqual(answer.parts);
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0].err)).toMatch(/ECONNREFUSED|57P01|terminat|CONNECTION/i);
    expect(lines.some((l) => l.msg === 'database back: stored after retrying')).toBe(true);
    // The failed query's parameters (the answer itself) are not in the log.
    expect(JSON.stringify(lines)).not.toContain('already read');
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

describe.skipIf(skipPostgres)('the S3-compatible store answering 500s and stalling', () => {
  let pg: OwnPostgres;
  let handle: DbHandle;
  let s3: S3TestServer;
  let proxy: FaultyProxy;
  const user = crypto.randomUUID();
  let conversationId: string;
  let spoolDir: string;

  beforeAll(async () => {
    spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chaos-spool-'));
    s3 = await startS3TestServer('runpad-chaos');
    proxy = await startFaultyProxy(s3.endpoint);
    pg = await ownCluster();
    handle = await createDb({ url: pg.url });
    await ensureUser(handle.db, user);
    conversationId = (await createConversation(handle.db, user, {})).id;
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    await proxy?.close();
    await s3?.stop();
    if (spoolDir) fs.rmSync(spoolDir, { recursive: true, force: true });
  });

  it('refuses uploads in words while it fails or stalls, keeps nothing half-stored, and works again when it answers', async () => {
    const store = createS3BlobStore({ bucket: s3.bucket, endpoint: proxy.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true, spoolDir, idleTimeoutMs: 1_000 });
    const target = { userId: user, conversationId };
    const limits = { maxBytes: 1_000_000, tooLarge: 'too large' };
    const upload = (name: string) => storeUpload(handle.db, store, target, { name, mediaType: 'text/csv' }, bytes([`name\n${name}\n`]), limits).then(() => null, (error: unknown) => toAppError(error));

    proxy.setFault('error-500');
    expect(await upload('during-500s.csv')).toMatchObject({ code: 'blobs:unavailable', status: 503 });
    proxy.setFault('stall');
    const stalled = await upload('during-stall.csv');
    expect(stalled).toMatchObject({ code: 'blobs:unavailable', status: 503 });
    expect(stalled?.message).toContain('nothing was stored');
    expect(await listFiles(handle.db, conversationId)).toEqual([]);
    expect(fs.readdirSync(spoolDir)).toEqual([]); // no spooled part left behind

    proxy.setFault('none');
    expect(await upload('after.csv')).toBeNull();
    const [file] = await listFiles(handle.db, conversationId);
    expect(file.name).toBe('after.csv');

    // A download from a stalling store fails instead of hanging; it works again afterwards.
    proxy.setFault('stall');
    expect(toAppError(await readWhole(store, file.sha256).then(() => null, (error: unknown) => error))).toMatchObject({ code: 'blobs:unavailable' });
    proxy.setFault('none');
    expect((await readWhole(store, file.sha256))?.toString()).toBe('name\nafter.csv\n');
  }, 120_000);
});

// Mounting a small tmpfs needs root on Linux (CI runs as root).
const cannotMount = skipOutsideCi(process.getuid?.() === 0 && process.platform === 'linux' ? null : 'mounting a full filesystem needs root on Linux');
describe.skipIf(cannotMount || skipPostgres)('the filesystem blob store out of space', () => {
  let pg: OwnPostgres;
  let handle: DbHandle;
  const user = crypto.randomUUID();
  let conversationId: string;
  let mount: string;

  beforeAll(async () => {
    mount = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chaos-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
    pg = await ownCluster();
    handle = await createDb({ url: pg.url });
    await ensureUser(handle.db, user);
    conversationId = (await createConversation(handle.db, user, {})).id;
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
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
    pg = await ownCluster();
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
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function health() {
    const { GET } = await import('@/app/api/health/route');
    const response = await GET(new Request('http://app.test/api/health'));
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  it('says redis when Redis stops, database when Postgres stops, and ok again when each is back, without a restart', async () => {
    // All up first: on a loaded machine the first probes of a fresh pool can miss their 2 s (seen once in CI).
    await vi.waitFor(async () => expect(await health()).toEqual({ status: 200, body: { status: 'ok', version: APP_VERSION, configuration: 'ok', database: 'ok', blobStore: 'ok', redis: 'ok' } }), { timeout: 60_000, interval: 500 });
    await redis.stop();
    const { log, lines } = capturedLog();
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
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
    await vi.waitFor(async () => expect((await health()).status).toBe(200), { timeout: 60_000, interval: 500 });
  }, 120_000);
});

describe.skipIf(skipRedis)('Redis stops while an answer streams and while rate limits count', () => {
  let pg: OwnPostgres;
  let redis: OwnRedis;
  let dataDir: string;
  const { log, lines } = capturedLog();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chaos-redis-'));
    redis = await startOwnRedis(REDIS_PORT + 2);
    pg = await ownCluster();
    vi.stubEnv('DATABASE_URL', pg.url);
    vi.stubEnv('REDIS_URL', redis.url);
    vi.stubEnv('RUNPAD_DATA_DIR', dataDir);
    vi.stubEnv('S3_BUCKET', '');
    vi.stubEnv('RUNPAD_MODELS', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('RUNPAD_MODEL_REQUESTS_PER_MINUTE', '3');
    vi.resetModules();
    // Set before the streams and the rate limits open their connections: they log through it.
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
  }, 120_000);
  afterAll(async () => {
    const app = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadBlobStore?: unknown; runpadStreams?: Promise<{ streams: { close(): Promise<void> }; registry: { close(): Promise<void> } }>; runpadRateLimits?: Map<string, Promise<{ close(): Promise<void> }>> };
    const [db, streams, limits] = [app.runpadDb, app.runpadStreams, [...(app.runpadRateLimits?.values() ?? [])]];
    Object.assign(app, { runpadDb: undefined, runpadBlobStore: undefined, runpadStreams: undefined, runpadRateLimits: undefined });
    await streams?.then(async ({ streams: context, registry }) => Promise.all([context.close(), registry.close()]));
    await Promise.all(limits.map((opened) => opened.then((l) => l.close())));
    await db?.then((h) => h.close());
    vi.unstubAllEnvs();
    await redis?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A guest with a person row, as requireUser would hand it to the chat. */
  async function guest() {
    const { getDb } = await import('@/lib/db/client.server');
    const { getPerson, insertGuest } = await import('@/lib/db/queries/users.server');
    const db = await getDb();
    const id = crypto.randomUUID();
    await insertGuest(db, id);
    const person = (await getPerson(db, id))!;
    return { userId: id, kind: 'guest' as const, email: null, name: null, isAdmin: false, sessionId: null, person, address: '192.0.2.7' };
  }

  /** POST /api/chat as route() answers it: the first message of a new conversation. */
  async function chat(identity: Awaited<ReturnType<typeof guest>>, conversationId: string, text: string) {
    const { route } = await import('@/lib/http/route.server');
    const { handleChat } = await import('@/lib/chat/handle-chat.server');
    const { chatRequestSchema } = await import('@/lib/chat/request-schema.server');
    const { ServerTiming } = await import('@/lib/http/server-timing.server');
    const request = chatRequestSchema.parse({ id: conversationId, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] } });
    return route(async ({ requestId }) => handleChat({ identity, request, timing: new ServerTiming(), requestId, log: log.child({ requestId }) }))(new Request('http://app.test/api/chat'));
  }

  /** Pushes the model's next chunks into answer `index` (opened by the request that asked). */
  async function say(index: number, parts: unknown[]) {
    await vi.waitFor(() => expect(model.answers.length).toBeGreaterThan(index), { timeout: 60_000 });
    for (const part of parts) model.answers[index].enqueue(part);
  }
  const text = (delta: string) => ({ type: 'text-delta', id: 't', delta });
  const finish = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } } };

  /** Reads the page's stream until `until` is in what it got (or the stream ends); returns it all. */
  async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, got: { text: string }, until?: string) {
    const decoder = new TextDecoder();
    while (until === undefined || !got.text.includes(until)) {
      const { done, value } = await reader.read();
      if (done) break;
      got.text += decoder.decode(value, { stream: true });
    }
    return got.text;
  }

  async function storedAnswer(conversationId: string) {
    const { getDb } = await import('@/lib/db/client.server');
    const { listMessages } = await import('@/lib/db/queries/messages.server');
    const answer = (await listMessages(await getDb(), conversationId)).find((m) => m.role === 'assistant');
    return answer ? { text: answer.parts.map((p) => (typeof p === 'object' && p !== null && 'text' in p && typeof p.text === 'string' ? p.text : '')).join(''), metadata: answer.metadata } : null;
  }

  it('the answer being read completes and is stored; new answers are refused in words; limits count in memory; all recovers without a restart', async () => {
    const person = await guest();
    const reading = crypto.randomUUID();
    const response = await chat(person, reading, 'a long answer, please');
    expect(response.status).toBe(200);
    const page = response.body!.getReader();
    const got = { text: '' };
    await say(0, [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, text('The first half, read before Redis stopped. ')]);
    await readUntil(page, got, 'read before Redis stopped');

    await redis.stop();
    await say(0, [text('The second half, written while it was down.'), { type: 'text-end', id: 't' }, finish]);
    model.answers[0].close();
    const seen = await readUntil(page, got);
    // The reader saw all of it, and no error.
    expect(seen).toContain('written while it was down');
    expect(seen).not.toContain('"type":"error"');
    // And it is stored as it was read, final (not a draft, not cut off).
    await vi.waitFor(async () => expect((await storedAnswer(reading))?.text).toBe('The first half, read before Redis stopped. The second half, written while it was down.'), { timeout: 30_000, interval: 250 });
    expect((await storedAnswer(reading))?.metadata).toEqual({ model: { id: 'demo', label: expect.any(String) } });

    // While it is down, the conversation still opens (a reload reads what is stored).
    const { loadOwnConversation } = await import('@/lib/chat/load-conversation.server');
    expect((await loadOwnConversation(person.userId, reading))?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    // A new answer cannot be registered for resuming and stopping: refused in words, with Retry.
    const other = await guest();
    const refused = await chat(other, crypto.randomUUID(), 'a question while Redis is down');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'streams:unavailable', retryable: true, error: expect.stringContaining('Redis is not reachable') });
    // Rate limits counted it in process memory: still limited (3 a minute), not let through unlimited.
    // Asked together: each refusal waits out the streams' short reconnect window (seconds) first.
    const again = await Promise.all([0, 1].map((i) => chat(other, crypto.randomUUID(), `again ${i}`)));
    expect(again.map((answer) => answer.status)).toEqual([503, 503]);
    const limited = await chat(other, crypto.randomUUID(), 'one too many');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'rate_limit:exceeded', error: expect.stringContaining('Try again in') });

    // Logged once with the cause, not once per request or per reconnect attempt.
    const limitWarnings = lines.filter((l) => l.component === 'rate-limits' && l.level === 40 && l.msg !== 'limit refused a request');
    expect(limitWarnings).toHaveLength(1);
    expect(String(limitWarnings[0].error)).toMatch(/ECONNREFUSED|ECONNRESET|Connection is closed|not ready|writable/i);
    const outages = lines.filter((l) => l.msg === 'streams redis connection error');
    const connections = outages.map((l) => l.connection);
    expect(new Set(connections).size).toBe(connections.length);
    expect(connections.length).toBeGreaterThan(0);
    for (const outage of outages) expect(JSON.stringify(outage.err)).toMatch(/ECONNREFUSED|ECONNRESET|Connection is closed/);

    // The stream's own end (marking it done for readers elsewhere) failed too: logged once, not thrown into the void.
    const streamWrites = () => lines.filter((l) => String(l.msg).startsWith('answer stream write to Redis failed'));
    // Whether that write meets the outage depends on when ioredis gives up retrying it (on a loaded
    // machine it may land after Redis is back): when it fails it is logged once, and it is never an
    // unhandled rejection (Vitest fails the run on one).
    expect(streamWrites().length).toBeLessThanOrEqual(1);

    // Back: each connection says so once, and a new answer streams, is stored and counts in Redis again.
    await redis.start();
    await vi.waitFor(() => expect(lines.filter((l) => l.msg === 'streams redis connection back').map((l) => l.connection).sort()).toEqual([...connections].sort()), { timeout: 60_000, interval: 250 });
    await vi.waitFor(() => expect(lines.filter((l) => l.component === 'rate-limits' && l.msg === 'redis back: rate limits count in Redis again')).toHaveLength(1), { timeout: 60_000, interval: 250 });
    const later = crypto.randomUUID();
    const recovered = await chat(person, later, 'and now?');
    expect(recovered.status).toBe(200);
    const after = recovered.body!.getReader();
    await say(1, [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, text('Back to normal.'), { type: 'text-end', id: 't' }, finish]);
    model.answers.at(-1)!.close();
    expect(await readUntil(after, { text: '' })).toContain('Back to normal.');
    await vi.waitFor(async () => expect((await storedAnswer(later))?.text).toBe('Back to normal.'), { timeout: 30_000, interval: 250 });
    expect(streamWrites().length).toBeLessThanOrEqual(1);
    // Rate limits count in Redis again (their connection reconnects by itself, as the streams' did).
    const { getRateLimits } = await import('@/lib/abuse/app-rate-limits.server');
    const { Redis } = await import('ioredis');
    const direct = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      await vi.waitFor(
        async () => {
          await (await getRateLimits()).consume('model-per-address', 'probe');
          expect(await direct.keys('runpad:rl:model-per-address:probe')).toHaveLength(1);
        },
        { timeout: 60_000, interval: 500 },
      );
    } finally {
      direct.disconnect();
    }
  }, 180_000);

  it('a model that fails mid-answer: the page gets the failure in words, and it is logged once, with its cause', async () => {
    const { APICallError } = await import('ai');
    const person = await guest();
    const index = model.answers.length;
    const response = await chat(person, crypto.randomUUID(), 'and then the provider fails');
    expect(response.status).toBe(200);
    // As the AI SDK makes it: with the request's body, which holds the whole conversation.
    const failure = new APICallError({ message: 'The server had an error', url: 'http://model.test/v1', requestBodyValues: { messages: [{ role: 'user', content: 'and then the provider fails' }] }, statusCode: 500, isRetryable: true });
    await say(index, [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, text('Half an answer '), { type: 'error', error: failure }]);
    model.answers[index].close();
    const seen = await readUntil(response.body!.getReader(), { text: '' });
    expect(seen).toContain('"type":"error"');
    expect(seen).toContain('The model provider had an error (HTTP 500)');
    // The page's stream has ended: everything the answer logs is logged by now.
    const failures = lines.filter((l) => l.msg === 'model request failed' && l.guest === person.userId);
    expect(failures.map((l) => ({ cause: l.cause, status: l.status }))).toEqual([{ cause: 'provider', status: 500 }]);
    expect(JSON.stringify(lines)).not.toContain('and then the provider fails');
  }, 60_000);
});
