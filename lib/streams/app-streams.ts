/**
 * The app's answer streams, opened once per process: resumable (a reload or another instance
 * attaches to an answer still being written) and stoppable from any instance. In-process by
 * default; through Redis when REDIS_URL is set (several instances).
 */
import 'server-only';
import { getConfig } from '@/lib/config';
import { createStreamRegistry, type StreamRegistry } from './active-streams';
import { createStreamContext, type StreamContext } from './stream-context';

type AppStreams = { streams: StreamContext; registry: StreamRegistry };
const globalForStreams = globalThis as unknown as { runpadStreams?: Promise<AppStreams> };

export function getAppStreams(): Promise<AppStreams> {
  if (!globalForStreams.runpadStreams) {
    const { redisUrl } = getConfig();
    globalForStreams.runpadStreams = createStreamRegistry({ redisUrl }).then((registry) => ({ streams: createStreamContext({ redisUrl }), registry }));
    globalForStreams.runpadStreams.catch(() => {
      globalForStreams.runpadStreams = undefined;
    });
  }
  return globalForStreams.runpadStreams;
}
