/**
 * resumable-stream's publisher and subscriber over ioredis, ours rather than the package's own
 * adapters. The package fires some Redis writes without awaiting them anywhere: when a stream ends
 * it marks it done and unsubscribes, and it forwards chunks to readers attached from another
 * instance. With Redis down those writes rejected with nothing to catch them: an unhandled
 * rejection per answer. Here such writes log the first failure of an outage and resolve; the
 * answer itself goes on and is stored, and only a reader attached from elsewhere can miss part of
 * it. SUBSCRIBE, GET and INCR still reject: their callers await them and answer in words.
 */
import 'server-only';
import type { Redis } from 'ioredis';
import type { Publisher, Subscriber } from 'resumable-stream/generic';
import { logger } from '@/lib/log/logger.server';

export function redisPubSub(publisherClient: Redis, subscriberClient: Redis): { publisher: Publisher; subscriber: Subscriber } {
  let failing = false;
  /** A write whose failure costs only resuming readers: logged once per outage, never rejected. */
  const bestEffort = async (what: string, write: () => Promise<unknown>): Promise<unknown> => {
    try {
      const result = await write();
      failing = false;
      return result;
    } catch (error) {
      if (!failing) logger().warn({ err: error, write: what }, 'answer stream write to Redis failed; the answer goes on, a reader attached from another instance may miss part of it');
      failing = true;
      return undefined;
    }
  };

  const handlers = new Map<string, (message: string) => void>();
  subscriberClient.on('message', (channel: string, message: string) => handlers.get(channel)?.(message));

  const publisher: Publisher = {
    connect: async () => undefined, // ioredis connects by itself
    publish: (channel, message) => bestEffort('publish', () => publisherClient.publish(channel, message)),
    set: (key, value, options) => bestEffort('set', () => (options?.EX ? publisherClient.set(key, value, 'EX', options.EX) : publisherClient.set(key, value))),
    get: (key) => publisherClient.get(key),
    incr: (key) => publisherClient.incr(key),
  };
  const subscriber: Subscriber = {
    connect: async () => undefined,
    subscribe: async (channel, callback) => {
      handlers.set(channel, callback);
      await subscriberClient.subscribe(channel);
    },
    unsubscribe: (channel) => {
      handlers.delete(channel);
      return bestEffort('unsubscribe', () => subscriberClient.unsubscribe(channel));
    },
  };
  return { publisher, subscriber };
}
