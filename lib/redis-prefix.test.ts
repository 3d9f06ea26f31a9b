/**
 * Every key the app writes in Redis is under RUNPAD_REDIS_PREFIX, so a Redis shared with other
 * apps (or other Runpads, each with its own prefix) holds nothing of ours outside it. Against a
 * redis-server of the test's own (on a port the system chose): every key in it after the app's
 * rate limits, answer streams, resumes and stops have run is one the app wrote. On the machine's
 * Redis, a key another test or another run of the suite wrote meanwhile (a logical database is
 * shared by everyone who picks its number) would count as the app's.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeRedis } from '@/lib/streams/redis-connection.server';
import { freePort, ownRedisUnavailable, startOwnRedis, type OwnRedis } from '@/lib/testing/own-servers';
import { Redis as RedisClient } from 'ioredis';

const skipReason = ownRedisUnavailable();
if (skipReason) console.warn(`[redis-prefix] skipped: ${skipReason}`);

const prefix = `runpad-prefix-test-${crypto.randomUUID()}:`;

async function allKeys(client: Redis): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

describe.skipIf(skipReason)('Redis keys under RUNPAD_REDIS_PREFIX', () => {
  let client: Redis;
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await startOwnRedis(await freePort());
    const url = redis.url;
    client = new RedisClient(url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
    client.on('error', () => undefined);
    vi.stubEnv('REDIS_URL', url);
    vi.stubEnv('RUNPAD_REDIS_PREFIX', prefix);
    vi.stubEnv('RUNPAD_MODELS', '');
    vi.stubEnv('RUNPAD_ACCESS', '');
  });
  afterAll(async () => {
    const app = globalThis as unknown as { runpadRateLimits?: Map<string, Promise<{ close(): Promise<void> }>>; runpadStreams?: Promise<{ streams: { close(): Promise<void> }; registry: { close(): Promise<void> } }> };
    for (const limits of app.runpadRateLimits?.values() ?? []) await (await limits).close();
    const streams = await app.runpadStreams;
    await streams?.streams.close();
    await streams?.registry.close();
    app.runpadRateLimits = undefined;
    app.runpadStreams = undefined;
    const ours = [...(await allKeys(client))].filter((key) => key.startsWith(prefix));
    if (ours.length > 0) await client.del(...ours);
    await closeRedis(client);
    await redis?.close();
    vi.unstubAllEnvs();
  });

  it('rate limits, answer streams, resumes and stops write only keys that start with the prefix', async () => {
    const before = await allKeys(client);
    const { getRateLimits, admitNewGuest } = await import('@/lib/abuse/app-rate-limits.server');
    expect((await (await getRateLimits()).consume('model-per-minute', 'guest-1')).ok).toBe(true);
    expect((await admitNewGuest('203.0.113.7')).ok).toBe(true);

    const { getAppStreams } = await import('@/lib/streams/app-streams.server');
    const { streams, registry } = await getAppStreams();
    const conversationId = crypto.randomUUID();
    const streamId = crypto.randomUUID();
    await registry.start(conversationId, streamId);
    const produced = await streams.context.createNewResumableStream(streamId, () => new ReadableStream<string>({ start: (c) => (c.enqueue('answer'), c.close()) }));
    const reader = produced!.getReader();
    while (!(await reader.read()).done);
    await streams.context.resumeExistingStream(streamId);
    await registry.stop(conversationId);
    expect(await registry.current(conversationId)).toBe(streamId);

    const written = [...(await allKeys(client))].filter((key) => !before.has(key));
    expect(written.some((key) => key.startsWith(`${prefix}rl:model-per-minute:`))).toBe(true);
    expect(written.some((key) => key.startsWith(`${prefix}rl:guests-per-address:`))).toBe(true);
    expect(written.some((key) => key.startsWith(`${prefix}streams:active:`))).toBe(true);
    expect(written.some((key) => key.startsWith(`${prefix}streams:rs:`))).toBe(true);
    expect(written.filter((key) => !key.startsWith(prefix))).toEqual([]);
  });
});
