/**
 * Shared by the streams tests: the real Redis they run against (lib/testing/redis.ts), a unique
 * key prefix per run that is deleted afterwards, and a string source the test pushes chunks into by hand.
 */
import { createHook } from 'node:async_hooks';
import { expect, vi } from 'vitest';

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

/**
 * Follows, by identity, the sockets and timers created from now on until each is closed: what the
 * code under test opened and left behind, whatever else the process opens or closes meanwhile (a
 * count of all handles at two instants is not that: an earlier test's timer may end in between).
 */
export function trackHandles() {
  const live = new Map<number, 'socket' | 'timer'>();
  let recording = true;
  const hook = createHook({
    init(asyncId, type) {
      if (!recording) return;
      if (type === 'TCPWRAP') live.set(asyncId, 'socket');
      else if (type === 'Timeout') live.set(asyncId, 'timer');
    },
    destroy(asyncId) {
      live.delete(asyncId);
    },
  }).enable();
  const count = () => {
    const kinds = [...live.values()];
    return { sockets: kinds.filter((kind) => kind === 'socket').length, timers: kinds.filter((kind) => kind === 'timer').length };
  };
  return {
    /** The tracked sockets and timers still open. */
    open: count,
    /**
     * Stops following new handles (the wait's own timers are not the code's) and waits until every
     * tracked one has been closed: Node reports a closed socket after its close callback, not at once.
     */
    async closed(): Promise<{ sockets: number; timers: number }> {
      recording = false;
      try {
        await vi.waitFor(() => expect(count()).toEqual({ sockets: 0, timers: 0 }), { timeout: 10_000, interval: 20 });
      } finally {
        hook.disable();
      }
      return count();
    },
  };
}
