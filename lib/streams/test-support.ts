/**
 * Shared by the streams tests: the real Redis they run against (lib/testing/redis.ts), a unique
 * key prefix per run that is deleted afterwards, and a string source the test pushes chunks into by hand.
 */
export { deleteKeys, redisUnavailable, TEST_REDIS_URL, uniquePrefix, withRedis } from '@/lib/testing/redis';

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
