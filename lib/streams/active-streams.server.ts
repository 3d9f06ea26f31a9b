/**
 * Which answer stream is live for a conversation, and stopping it from wherever the Stop arrives.
 * By default in-process maps (one instance). With Redis the live stream id is a key with a TTL
 * (a crashed instance's entry expires), and stops travel on a pub/sub channel every instance
 * subscribes to, so a Stop handled by instance A aborts the model request running on instance B.
 */
import 'server-only';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { logger } from '@/lib/log/logger.server';
import { closeRedis, DEFAULT_STREAMS_KEY_PREFIX, openRedis } from './redis-connection.server';

export interface StreamRegistry {
  /** Records `streamId` as the conversation's live stream (replacing any earlier one). */
  start(conversationId: string, streamId: string): Promise<void>;
  /** The live stream id, or null. */
  current(conversationId: string): Promise<string | null>;
  /** Clears it if it is still `streamId`. */
  finish(conversationId: string, streamId: string): Promise<void>;
  /** Asks whichever instance runs the stream to abort it (the model request upstream too); resolves true when a live stream was signalled. */
  stop(conversationId: string): Promise<boolean>;
  /** Registers the local AbortController of a stream this instance runs; returns an unregister function. */
  onStop(conversationId: string, streamId: string, abort: () => void): () => void;
  close(): Promise<void>;
}

export interface StreamRegistryOptions {
  redisUrl: string | null;
  /** Prefix of the keys and the stop channel; default `runpad:streams`. */
  keyPrefix?: string;
  /** How long a live-stream entry lasts unless `start` refreshes it; default 10 minutes. */
  ttlSeconds?: number;
}

export const DEFAULT_ACTIVE_STREAM_TTL_SECONDS = 600;

/** The Redis key holding a conversation's live stream id. */
export const activeStreamKey = (keyPrefix: string, conversationId: string) => `${keyPrefix}:active:${conversationId}`;
/** The channel stop signals travel on: JSON `{ conversationId, streamId }`. */
export const stopChannel = (keyPrefix: string) => `${keyPrefix}:stop`;

// Compare-and-delete in one step on the server: a late finish of an old stream must not clear a newer one.
const FINISH_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

export async function createStreamRegistry(options: StreamRegistryOptions): Promise<StreamRegistry> {
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_ACTIVE_STREAM_TTL_SECONDS;
  // Redis expiries are whole seconds.
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new Error(`ttlSeconds must be a positive integer, got ${ttlSeconds}`);
  const keyPrefix = options.keyPrefix ?? DEFAULT_STREAMS_KEY_PREFIX;
  return options.redisUrl ? redisRegistry(options.redisUrl, keyPrefix, ttlSeconds) : memoryRegistry(ttlSeconds);
}

/** The abort callbacks of the streams this instance runs, by conversation and stream. */
class LocalAborts {
  private readonly byStream = new Map<string, Set<() => void>>();

  add(conversationId: string, streamId: string, abort: () => void): () => void {
    const key = JSON.stringify([conversationId, streamId]);
    const callbacks = this.byStream.get(key) ?? new Set();
    // A wrapper, so registering the same function twice still unregisters one at a time.
    const entry = () => abort();
    callbacks.add(entry);
    this.byStream.set(key, callbacks);
    return () => {
      callbacks.delete(entry);
      if (callbacks.size === 0 && this.byStream.get(key) === callbacks) this.byStream.delete(key);
    };
  }

  abort(conversationId: string, streamId: string): void {
    for (const abort of this.byStream.get(JSON.stringify([conversationId, streamId])) ?? []) {
      // One failing callback must not keep the others (or the stop channel) from working.
      try {
        abort();
      } catch (error) {
        logger().warn({ err: error, conversationId, streamId }, 'stream abort callback failed');
      }
    }
  }

  clear(): void {
    this.byStream.clear();
  }
}

function memoryRegistry(ttlSeconds: number): StreamRegistry {
  const live = new Map<string, { streamId: string; expiresAt: number }>();
  const aborts = new LocalAborts();
  // The same TTL as with Redis, so both backends answer alike; expired entries go when read.
  const read = (conversationId: string): string | null => {
    const entry = live.get(conversationId);
    if (!entry) return null;
    if (entry.expiresAt > Date.now()) return entry.streamId;
    live.delete(conversationId);
    return null;
  };
  return {
    start: async (conversationId, streamId) => {
      live.set(conversationId, { streamId, expiresAt: Date.now() + ttlSeconds * 1000 });
    },
    current: async (conversationId) => read(conversationId),
    finish: async (conversationId, streamId) => {
      if (read(conversationId) === streamId) live.delete(conversationId);
    },
    stop: async (conversationId) => {
      const streamId = read(conversationId);
      if (streamId === null) return false;
      aborts.abort(conversationId, streamId);
      return true;
    },
    onStop: (conversationId, streamId, abort) => aborts.add(conversationId, streamId, abort),
    close: async () => {
      live.clear();
      aborts.clear();
    },
  };
}

const stopSignalSchema = z.object({ conversationId: z.string(), streamId: z.string() });

/** A stop signal from the channel; null (logged) for anything else published there. */
function parseStopSignal(message: string): z.infer<typeof stopSignalSchema> | null {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    value = undefined; // not JSON: refused by the schema below
  }
  const parsed = stopSignalSchema.safeParse(value);
  if (!parsed.success) logger().warn({ message: message.slice(0, 200) }, 'ignored a malformed stop signal');
  return parsed.success ? parsed.data : null;
}

async function redisRegistry(url: string, keyPrefix: string, ttlSeconds: number): Promise<StreamRegistry> {
  const commands = openRedis(url, 'runpad-stream-registry');
  const subscriber = openRedis(url, 'runpad-stream-registry-stops');
  const clients: Redis[] = [commands, subscriber];
  const channel = stopChannel(keyPrefix);
  const aborts = new LocalAborts();

  // Every instance hears every stop and aborts only the streams it has registered.
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const signal = parseStopSignal(message);
    if (signal) aborts.abort(signal.conversationId, signal.streamId);
  });
  try {
    // Subscribed before it is handed out, so no stop for a stream it is about to run is missed.
    await subscriber.subscribe(channel);
  } catch (error) {
    await Promise.all(clients.map((client) => closeRedis(client)));
    throw error;
  }

  const key = (conversationId: string) => activeStreamKey(keyPrefix, conversationId);
  return {
    start: async (conversationId, streamId) => {
      await commands.set(key(conversationId), streamId, 'EX', ttlSeconds);
    },
    current: (conversationId) => commands.get(key(conversationId)),
    finish: async (conversationId, streamId) => {
      await commands.eval(FINISH_SCRIPT, 1, key(conversationId), streamId);
    },
    stop: async (conversationId) => {
      const streamId = await commands.get(key(conversationId));
      if (streamId === null) return false;
      // The signal names the stream, so a stop that arrives late cannot abort a newer answer.
      const receivers = await commands.publish(channel, JSON.stringify({ conversationId, streamId }));
      return receivers > 0;
    },
    onStop: (conversationId, streamId, abort) => aborts.add(conversationId, streamId, abort),
    close: async () => {
      aborts.clear();
      await Promise.all(clients.map((client) => closeRedis(client)));
    },
  };
}
