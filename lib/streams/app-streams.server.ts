/**
 * The app's answer streams, opened once per process: resumable (a reload or another instance
 * attaches to an answer still being written) and stoppable from any instance. In-process by
 * default; through Redis when REDIS_URL is set (several instances).
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import { logger } from '@/lib/log/logger.server';
import { createStreamRegistry, type StreamRegistry } from './active-streams.server';
import { createStreamContext, type StreamContext } from './stream-context.server';

type AppStreams = { streams: StreamContext; registry: StreamRegistry };
const globalForStreams = globalThis as unknown as { runpadStreams?: Promise<AppStreams> };

export function getAppStreams(): Promise<AppStreams> {
  if (!globalForStreams.runpadStreams) {
    const { redisUrl, redisPrefix } = getConfig();
    // Keys and channels under the app's prefix (RUNPAD_REDIS_PREFIX; `runpad:streams` by default).
    const keyPrefix = `${redisPrefix}streams`;
    globalForStreams.runpadStreams = createStreamRegistry({ redisUrl, keyPrefix }).then((registry) => ({ streams: createStreamContext({ redisUrl, keyPrefix }), registry }));
    globalForStreams.runpadStreams.catch(() => {
      globalForStreams.runpadStreams = undefined;
    });
  }
  return globalForStreams.runpadStreams;
}

/**
 * The conversation's live answer stream, or null; 'unknown' when the registry cannot be asked
 * (Redis unreachable). Readers then show what is stored and assume nothing about what is live:
 * a reload works during an outage, it only cannot attach to an answer being written.
 */
export async function liveStreamId(conversationId: string): Promise<string | null | 'unknown'> {
  try {
    return await (await getAppStreams()).registry.current(conversationId);
  } catch (error) {
    // The outage itself is logged once by the connection (lib/streams/redis-connection.server.ts).
    logger().info({ conversationId, reason: error instanceof Error ? error.message : String(error) }, 'live answer unknown: the stream registry cannot be reached; what is stored is shown');
    return 'unknown';
  }
}

/** How long a reader waits for an answer the registry names to reach the stream store. */
const FIRST_BYTES_WAIT_MS = 5_000;

/**
 * The conversation's answer being written, from its first chunk, or null when none is. The
 * registry names an answer as soon as its request is accepted; the stream store holds it once its
 * first bytes leave the server, a moment later (and another instance may be asked in between):
 * a reader that asks then waits for it, while the registry still names it, instead of being told
 * nothing is being written.
 */
export async function resumeLiveAnswer(conversationId: string, waitMs = FIRST_BYTES_WAIT_MS): Promise<ReadableStream<string> | null> {
  const deadline = Date.now() + waitMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
    const streamId = await liveStreamId(conversationId);
    if (streamId === null || streamId === 'unknown') return null;
    const stream = await (await getAppStreams()).streams.context.resumeExistingStream(streamId);
    // undefined: not in the store yet; null: it has ended.
    if (stream !== undefined) return stream;
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
