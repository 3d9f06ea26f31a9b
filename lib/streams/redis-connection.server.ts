/**
 * The ioredis connections the answer streams use (the resumable-stream context and the stream
 * registry): opened with short retries, errors logged rather than thrown, and closed so that no
 * socket or reconnect timer outlives `close()`.
 */
import 'server-only';
import { Redis } from 'ioredis';
import { logger } from '@/lib/log/logger.server';

/** Keys and channels of the answer streams live under this prefix unless one is given. */
export const DEFAULT_STREAMS_KEY_PREFIX = 'runpad:streams';

/**
 * A command or subscriber connection. Commands issued before the first connect wait in the
 * offline queue, but fail after a few reconnect attempts (not ioredis's default 20), so a Redis
 * outage turns into an error for the request instead of a chat that hangs.
 */
export function openRedis(url: string, connectionName: string): Redis {
  const client = new Redis(url, {
    connectionName,
    maxRetriesPerRequest: 2,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    // No INFO before 'ready': on a reconnect, a SUBSCRIBE sent between the socket's connect and
    // the ready check put the connection in subscriber mode, INFO was refused ("Connection in
    // subscriber mode"), and ioredis dropped the fresh socket and its queued commands to start
    // over (seen in the chaos test's Redis restart). The streams' keys are ephemeral, so a Redis
    // still loading a dump has nothing to wait for.
    enableReadyCheck: false,
  });
  // Without a listener ioredis prints every reconnect failure as an "unhandled error event".
  // An outage is logged once, with its cause, and its end once: not every reconnect attempt.
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    logger().warn({ err: error, connection: connectionName }, 'streams redis connection error');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger().info({ connection: connectionName }, 'streams redis connection back');
  });
  return client;
}

/** Quits (or drops) the connection and resolves once its socket is closed. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  // Between sockets there is nothing to wait for: disconnect() only cancels the reconnect timer.
  if (client.status === 'reconnecting' || client.status === 'wait') {
    client.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    client.disconnect();
  }
  await ended;
}
