/**
 * The real Redis the tests run against (TEST_REDIS_URL or 127.0.0.1:6379; when it does not answer a
 * suite fails under CI=true and is skipped with a printed notice elsewhere), shared by the streams
 * and rate-limit tests.
 */
import { Redis } from 'ioredis';
import { closeRedis } from '@/lib/streams/redis-connection.server';
import { skipOutsideCi } from './required';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** null when Redis answers, else why the Redis tests are skipped (under CI=true: throws instead). */
export async function redisUnavailable(): Promise<string | null> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return skipOutsideCi(`no Redis at ${TEST_REDIS_URL} (${(error as Error).message})`);
  } finally {
    await closeRedis(probe);
  }
}

export const uniquePrefix = (name: string) => `runpad-test:${name}:${crypto.randomUUID()}`;

/** Runs `run` with a plain client for looking at keys directly, and closes it (socket included). */
export async function withRedis<T>(run: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    return await run(client);
  } finally {
    await closeRedis(client);
  }
}

/** Deletes every key under the prefix and returns how many remain (0 unless something is still writing). */
export function deleteKeys(keyPrefix: string): Promise<number> {
  return withRedis(async (client) => {
    const keys: string[] = [];
    for await (const batch of client.scanStream({ match: `${keyPrefix}:*`, count: 500 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await client.del(...keys);
    return (await client.keys(`${keyPrefix}:*`)).length;
  });
}
