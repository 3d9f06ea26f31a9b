/**
 * Shared by the streams tests: the real Redis they run against (TEST_REDIS_URL or 127.0.0.1:6379,
 * skipped with a printed notice when unreachable), a unique key prefix per run that is deleted
 * afterwards, and a string source the test pushes chunks into by hand.
 */
import { Redis } from 'ioredis';
import { closeRedis } from './redis-connection';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** null when Redis answers, else why the Redis tests are skipped. */
export async function redisUnavailable(): Promise<string | null> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return `no Redis at ${TEST_REDIS_URL} (${(error as Error).message})`;
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

/** A ReadableStream<string> whose chunks and end the test controls. */
export function manualSource() {
  let controller!: ReadableStreamDefaultController<string>;
  const stream = new ReadableStream<string>({
    start(c) {
      controller = c;
    },
  });
  return { stream, push: (chunk: string) => controller.enqueue(chunk), end: () => controller.close() };
}

/** Reads until the chunks add up to `length` characters (or the stream ends) and returns them. */
export async function readChars(reader: ReadableStreamDefaultReader<string>, length: number): Promise<string[]> {
  const chunks: string[] = [];
  while (chunks.join('').length < length) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return chunks;
}

/** A promise with its resolver, for waiting on callbacks. */
export function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** How many sockets and timers this process has open (to check that close() leaves none behind). */
export function openHandles(): { sockets: number; timers: number } {
  const kinds = process.getActiveResourcesInfo();
  return { sockets: kinds.filter((kind) => kind === 'TCPSocketWrap').length, timers: kinds.filter((kind) => kind === 'Timeout').length };
}
