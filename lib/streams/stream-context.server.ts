/**
 * The resumable-stream context the chat's answers stream through, so a reloaded page (or another
 * app instance) can attach to an answer in progress: over Redis when a URL is configured (any
 * instance can resume any stream), else over an in-process pub/sub (one instance, no Redis).
 */
import 'server-only';
import type { Redis } from 'ioredis';
import { createResumableStreamContext, type ResumableStreamContext } from 'resumable-stream/ioredis';
import { logger } from '@/lib/log/logger.server';
import { MemoryPubSub } from './memory-pubsub.server';
import { closeRedis, DEFAULT_STREAMS_KEY_PREFIX, openRedis } from './redis-connection.server';
import { redisPubSub } from './redis-pubsub.server';

export interface StreamContextOptions {
  /** Redis for streams shared by every instance; null for the in-process pub/sub. */
  redisUrl: string | null;
  /** Prefix of the keys and channels (resumable-stream adds `:rs:`); default `runpad:streams`. */
  keyPrefix?: string;
}

export interface StreamContext {
  context: ResumableStreamContext;
  /** Closes the connections (or the in-process pub/sub); call it after the streams have ended. */
  close(): Promise<void>;
}

export function createStreamContext(options: StreamContextOptions): StreamContext {
  const keyPrefix = options.keyPrefix ?? DEFAULT_STREAMS_KEY_PREFIX;
  // A long-running server: the producer finishes its stream without anything keeping it alive.
  const waitUntil = null;

  if (!options.redisUrl) {
    const bus = new MemoryPubSub({ onCallbackError: (error) => logger().error({ err: error }, 'resumable stream pub/sub callback failed') });
    const context = createResumableStreamContext({ keyPrefix, waitUntil, publisher: bus.publisher, subscriber: bus.subscriber });
    return { context, close: () => bus.close() };
  }

  // Two connections: one in subscriber mode can run no other command. Our adapters, not the
  // package's: its unawaited writes must not reject while Redis is down (./redis-pubsub.ts).
  const clients: Redis[] = [openRedis(options.redisUrl, 'runpad-streams-publisher'), openRedis(options.redisUrl, 'runpad-streams-subscriber')];
  const { publisher, subscriber } = redisPubSub(clients[0], clients[1]);
  const context = createResumableStreamContext({ keyPrefix, waitUntil, publisher, subscriber });
  return {
    context,
    close: async () => {
      await Promise.all(clients.map((client) => closeRedis(client)));
    },
  };
}
