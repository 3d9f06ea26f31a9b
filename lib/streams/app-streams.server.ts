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
