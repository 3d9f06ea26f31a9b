/**
 * The resumable-stream contract the chat relies on, on both backends: the in-process pub/sub and a
 * real Redis, where the consumer attaches through a second context (a second app instance). A
 * consumer that attaches mid-way gets everything so far at once, then the live chunks in order,
 * and ends with the source; afterwards the stream reads as done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamContext, type StreamContext } from './stream-context.server';
import { deleteKeys, manualSource, readChars, redisUnavailable, TEST_REDIS_URL, uniquePrefix, withRedis, trackHandles } from '../testing/streams';

type Backend = { name: string; redisUrl: string | null };

for (const backend of [{ name: 'memory', redisUrl: null }, { name: 'Redis', redisUrl: TEST_REDIS_URL }] satisfies Backend[]) {
  describe(`resumable streams on ${backend.name}`, () => {
    const keyPrefix = uniquePrefix('rs');
    let skipReason: string | null = null;
    // Two contexts: on Redis two instances; in memory one process, so both are the same context.
    let producerSide: StreamContext;
    let consumerSide: StreamContext;

    beforeAll(async () => {
      skipReason = backend.redisUrl ? await redisUnavailable() : null;
      if (skipReason) {
        console.warn(`[streams] skipping ${backend.name}: ${skipReason}`);
        return;
      }
      producerSide = createStreamContext({ redisUrl: backend.redisUrl, keyPrefix });
      consumerSide = backend.redisUrl ? createStreamContext({ redisUrl: backend.redisUrl, keyPrefix }) : producerSide;
    });
    afterAll(async () => {
      if (skipReason) return;
      await Promise.all([producerSide.close(), consumerSide.close()]);
      if (backend.redisUrl) expect(await deleteKeys(keyPrefix)).toBe(0);
    });
    const live = (name: string, body: () => Promise<void>) =>
      it(name, async (context) => {
        if (skipReason) context.skip(skipReason);
        await body();
      });

    live('a consumer attaching mid-way gets all so far at once, then the live chunks, and ends with the source', async () => {
      const streamId = crypto.randomUUID();
      const source = manualSource();
      const produced = await producerSide.context.createNewResumableStream(streamId, () => source.stream);
      expect(produced).toBeInstanceOf(ReadableStream);
      const producer = produced!.getReader();

      source.push('Hel');
      source.push('lo');
      // The producer's reader has them: the package has buffered both.
      expect((await readChars(producer, 5)).join('')).toBe('Hello');
      expect(await consumerSide.context.hasExistingStream(streamId)).toBe(true);

      const resumed = await consumerSide.context.resumeExistingStream(streamId);
      expect(resumed).toBeInstanceOf(ReadableStream);
      const consumer = resumed!.getReader();
      // Everything so far, before the source produces anything more.
      expect(await consumer.read()).toEqual({ done: false, value: 'Hello' });

      source.push(', ');
      expect(await consumer.read()).toEqual({ done: false, value: ', ' });
      source.push('wor');
      source.push('ld');
      expect(await readChars(consumer, 5)).toEqual(['wor', 'ld']);
      source.end();
      expect(await consumer.read()).toEqual({ done: true, value: undefined });

      // The original reader saw the same text and ends too.
      expect((await readChars(producer, 7)).join('')).toBe(', world');
      expect(await producer.read()).toEqual({ done: true, value: undefined });

      // Done: resuming now says so (null), on either side.
      expect(await consumerSide.context.resumeExistingStream(streamId)).toBeNull();
      expect(await producerSide.context.resumeExistingStream(streamId)).toBeNull();
      expect(await consumerSide.context.hasExistingStream(streamId)).toBe('DONE');
    });

    live('an unknown stream id resumes as undefined', async () => {
      expect(await consumerSide.context.resumeExistingStream(crypto.randomUUID())).toBeUndefined();
      expect(await consumerSide.context.hasExistingStream(crypto.randomUUID())).toBeNull();
    });

    live('a consumer attaching after a skip gets only the rest; one attaching before any chunk gets the empty text first', async () => {
      const streamId = crypto.randomUUID();
      const source = manualSource();
      const producer = (await producerSide.context.createNewResumableStream(streamId, () => source.stream))!.getReader();

      const early = (await consumerSide.context.resumeExistingStream(streamId))!.getReader();
      expect(await early.read()).toEqual({ done: false, value: '' });

      source.push('abcdef');
      expect(await readChars(producer, 6)).toEqual(['abcdef']);
      expect(await early.read()).toEqual({ done: false, value: 'abcdef' });
      const skipping = (await consumerSide.context.resumeExistingStream(streamId, 4))!.getReader();
      expect(await skipping.read()).toEqual({ done: false, value: 'ef' });

      source.push('g');
      source.end();
      for (const reader of [early, skipping]) {
        expect(await reader.read()).toEqual({ done: false, value: 'g' });
        expect(await reader.read()).toEqual({ done: true, value: undefined });
      }
      expect(await readChars(producer, 1)).toEqual(['g']);
    });

    live('the idempotent resumableStream() makes the stream once and resumes it elsewhere', async () => {
      const streamId = crypto.randomUUID();
      const source = manualSource();
      let made = 0;
      const make = () => {
        made += 1;
        return source.stream;
      };
      const producer = (await producerSide.context.resumableStream(streamId, make))!.getReader();
      source.push('one');
      expect(await readChars(producer, 3)).toEqual(['one']);
      const consumer = (await consumerSide.context.resumableStream(streamId, make))!.getReader();
      expect(await consumer.read()).toEqual({ done: false, value: 'one' });
      expect(made).toBe(1);
      source.end();
      expect(await consumer.read()).toEqual({ done: true, value: undefined });
      expect(await producer.read()).toEqual({ done: true, value: undefined });
      expect(await consumerSide.context.resumableStream(streamId, make)).toBeNull();
      expect(made).toBe(1);
    });

    if (backend.redisUrl) {
      live('keeps its keys under the prefix, with the package’s 24-hour expiry', async () => {
        const streamId = crypto.randomUUID();
        const source = manualSource();
        const producer = (await producerSide.context.createNewResumableStream(streamId, () => source.stream))!.getReader();
        source.end();
        expect(await producer.read()).toEqual({ done: true, value: undefined });
        expect(await producerSide.context.hasExistingStream(streamId)).toBe('DONE');
        const key = `${keyPrefix}:rs:sentinel:${streamId}`;
        const [value, ttl] = await withRedis((client) => Promise.all([client.get(key), client.ttl(key)]));
        expect(value).toBe('DONE');
        expect(ttl).toBeGreaterThan(24 * 3600 - 60);
      });

      live('close() leaves no socket or timer behind', async () => {
        const handles = trackHandles();
        const instance = createStreamContext({ redisUrl: backend.redisUrl, keyPrefix });
        const streamId = crypto.randomUUID();
        const source = manualSource();
        const producer = (await instance.context.createNewResumableStream(streamId, () => source.stream))!.getReader();
        expect(handles.open().sockets).toBe(2);
        source.end();
        expect(await producer.read()).toEqual({ done: true, value: undefined });
        // The producer's own bookkeeping (DONE sentinel, unsubscribe) has reached Redis.
        expect(await instance.context.hasExistingStream(streamId)).toBe('DONE');
        await instance.close();
        expect(await handles.closed()).toEqual({ sockets: 0, timers: 0 });
      });
    }
  });
}
