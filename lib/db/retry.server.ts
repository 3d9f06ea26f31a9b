/**
 * A write the user has already seen (an answer that streamed to the end) waits out a database
 * restart instead of being lost: retried while the failure is the database being unreachable,
 * with growing pauses, up to a deadline. Any other failure, or the deadline, throws as it is.
 */
import 'server-only';
import type { Logger } from '@/lib/log/logger.server';
import { isDatabaseUnavailable } from './pg-errors.server';

export async function retryWhileDatabaseDown<T>(what: string, write: () => Promise<T>, options: { log?: Logger; deadlineMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  let pauseMs = 200;
  let failures = 0;
  for (;;) {
    try {
      const result = await write();
      if (failures > 0) options.log?.info({ what, attempts: failures + 1 }, 'database back: stored after retrying');
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + pauseMs > deadline) throw error;
      // Logged once, with its cause, not at every attempt.
      if (failures === 0) options.log?.warn({ err: error, what }, 'database unavailable: retrying until it is back');
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(pauseMs * 2, 2_000);
    }
  }
}
