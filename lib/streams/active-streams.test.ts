/**
 * The stream registry on both backends: in-process maps, and a real Redis with two registries
 * standing for two app instances (a stop sent from one aborts the stream the other runs). Stop
 * callbacks are awaited as events; "not called" is checked behind a later stop that was delivered,
 * since stop signals arrive in order.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '@/lib/log/logger.server';
import { activeStreamKey, createStreamRegistry, type StreamRegistry } from './active-streams.server';
import { deleteKeys, redisUnavailable, signal, trackHandles, TEST_REDIS_URL, uniquePrefix, withRedis } from '../testing/streams';

type Backend = { name: string; redisUrl: string | null };

for (const backend of [{ name: 'memory', redisUrl: null }, { name: 'Redis', redisUrl: TEST_REDIS_URL }] satisfies Backend[]) {
  describe(`stream registry on ${backend.name}`, () => {
    const keyPrefix = uniquePrefix('registry');
    const ttlSeconds = 120;
    let skipReason: string | null = null;
    // On Redis two instances; in memory one process, so both are the same registry.
    let instanceA: StreamRegistry;
    let instanceB: StreamRegistry;
    const conversation = () => `conv-${crypto.randomUUID()}`;

    beforeAll(async () => {
      skipReason = backend.redisUrl ? await redisUnavailable() : null;
      if (skipReason) {
        console.warn(`[streams] skipping ${backend.name}: ${skipReason}`);
        return;
      }
      instanceA = await createStreamRegistry({ redisUrl: backend.redisUrl, keyPrefix, ttlSeconds });
      instanceB = backend.redisUrl ? await createStreamRegistry({ redisUrl: backend.redisUrl, keyPrefix, ttlSeconds }) : instanceA;
    });
    afterAll(async () => {
      if (skipReason) return;
      await Promise.all([instanceA.close(), instanceB.close()]);
      if (backend.redisUrl) expect(await deleteKeys(keyPrefix)).toBe(0);
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    const live = (name: string, body: () => Promise<void>) =>
      it(name, async (context) => {
        if (skipReason) context.skip(skipReason);
        await body();
      });

    live('records the live stream, replaces it, and a late finish of the old one does not clear the new one', async () => {
      const c = conversation();
      expect(await instanceA.current(c)).toBeNull();
      await instanceA.start(c, 'stream-1');
      expect(await instanceB.current(c)).toBe('stream-1');
      await instanceB.start(c, 'stream-2');
      expect(await instanceA.current(c)).toBe('stream-2');
      await instanceA.finish(c, 'stream-1');
      expect(await instanceB.current(c)).toBe('stream-2');
      await instanceA.finish(c, 'stream-2');
      expect(await instanceB.current(c)).toBeNull();
      // Conversations are kept apart.
      const other = conversation();
      await instanceA.start(other, 'stream-3');
      expect(await instanceA.current(c)).toBeNull();
      await instanceA.finish(other, 'stream-3');
    });

    live('stop reaches the instance that runs the stream, and only that stream', async () => {
      const c = conversation();
      const aborted = signal();
      const oldAborted = vi.fn();
      instanceB.onStop(c, 'old', oldAborted);
      instanceB.onStop(c, 'live', aborted.resolve);
      await instanceB.start(c, 'live');
      expect(await instanceA.stop(c)).toBe(true);
      await aborted.promise;
      // Every callback for 'live' has run by now; the stop named 'live', not 'old'.
      expect(oldAborted).not.toHaveBeenCalled();
      // Stopping does not clear the entry: the stream's own finish does, once it has wound down.
      expect(await instanceA.current(c)).toBe('live');
      await instanceB.finish(c, 'live');
      expect(await instanceA.stop(c)).toBe(false);
    });

    live('stop with nothing live is false and aborts nothing', async () => {
      const c = conversation();
      const abort = vi.fn();
      instanceB.onStop(c, 'never-started', abort);
      expect(await instanceA.stop(c)).toBe(false);
      expect(await instanceA.stop(conversation())).toBe(false);
      expect(abort).not.toHaveBeenCalled();
    });

    live('an unregistered callback is not called; another still is, and a throwing one does not block it', async () => {
      const [c, barrierConversation] = [conversation(), conversation()];
      const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => undefined);
      const unregistered = vi.fn();
      const unregister = instanceB.onStop(c, 's', unregistered);
      unregister();
      const kept = signal();
      instanceB.onStop(c, 's', () => {
        throw new Error('abort failed');
      });
      instanceB.onStop(c, 's', kept.resolve);
      await instanceA.start(c, 's');
      expect(await instanceA.stop(c)).toBe(true);
      await kept.promise;
      // A stop sent afterwards arriving means the first one has been fully handled.
      const barrier = signal();
      instanceB.onStop(barrierConversation, 'b', barrier.resolve);
      await instanceB.start(barrierConversation, 'b');
      expect(await instanceA.stop(barrierConversation)).toBe(true);
      await barrier.promise;
      expect(unregistered).not.toHaveBeenCalled();
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ conversationId: c, streamId: 's' }), 'stream abort callback failed');
      warn.mockRestore();
      await Promise.all([instanceA.finish(c, 's'), instanceA.finish(barrierConversation, 'b')]);
    });

    if (backend.redisUrl) {
      live('keeps the live stream id in a key with the TTL, refreshed by start and removed by finish', async () => {
        const c = conversation();
        const key = activeStreamKey(keyPrefix, c);
        await instanceA.start(c, 's');
        const [value, ttl] = await withRedis((client) => Promise.all([client.get(key), client.ttl(key)]));
        expect(value).toBe('s');
        expect(ttl).toBeGreaterThan(ttlSeconds - 10);
        expect(ttl).toBeLessThanOrEqual(ttlSeconds);
        await withRedis((client) => client.expire(key, 5));
        await instanceB.start(c, 's');
        expect(await withRedis((client) => client.ttl(key))).toBeGreaterThan(ttlSeconds - 10);
        await instanceB.finish(c, 's');
        expect(await withRedis((client) => client.exists(key))).toBe(0);
      });

      live('close() leaves no socket or timer behind', async () => {
        const handles = trackHandles();
        const registry = await createStreamRegistry({ redisUrl: backend.redisUrl, keyPrefix });
        expect(handles.open().sockets).toBe(2);
        const c = conversation();
        const aborted = signal();
        registry.onStop(c, 's', aborted.resolve);
        await registry.start(c, 's');
        expect(await registry.stop(c)).toBe(true);
        await aborted.promise;
        await registry.finish(c, 's');
        await registry.close();
        expect(await handles.closed()).toEqual({ sockets: 0, timers: 0 });
      });
    } else {
      live('forgets a live stream after the TTL, as the Redis key would expire', async () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        const c = conversation();
        await instanceA.start(c, 's');
        vi.setSystemTime(Date.now() + (ttlSeconds - 1) * 1000);
        expect(await instanceA.current(c)).toBe('s');
        await instanceA.start(c, 's');
        vi.setSystemTime(Date.now() + (ttlSeconds - 1) * 1000);
        expect(await instanceA.current(c)).toBe('s');
        vi.setSystemTime(Date.now() + 1000);
        expect(await instanceA.current(c)).toBeNull();
        expect(await instanceA.stop(c)).toBe(false);
      });
    }

    it('refuses a TTL Redis cannot store', async () => {
      await expect(createStreamRegistry({ redisUrl: backend.redisUrl, ttlSeconds: 1.5 })).rejects.toThrow('ttlSeconds');
      await expect(createStreamRegistry({ redisUrl: backend.redisUrl, ttlSeconds: 0 })).rejects.toThrow('ttlSeconds');
    });
  });
}
