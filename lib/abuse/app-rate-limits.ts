/**
 * The app's rate limits, opened once per process: counters in Redis when REDIS_URL is set
 * (shared by every instance), else in the app's Postgres (embedded or server).
 */
import 'server-only';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { createRateLimits, type LimitDecision, type LimitKind, type RateLimits } from './rate-limits';

const globalForLimits = globalThis as unknown as { runpadRateLimits?: Promise<RateLimits> };

export function getRateLimits(): Promise<RateLimits> {
  if (!globalForLimits.runpadRateLimits) {
    const config = getConfig();
    const rules = {
      'model-per-minute': { points: config.limits.modelRequestsPerMinute, durationSeconds: 60 },
      'model-per-day': { points: config.limits.modelRequestsPerDay, durationSeconds: 86_400 },
    };
    globalForLimits.runpadRateLimits = config.redisUrl
      ? createRateLimits({ store: 'redis', redisUrl: config.redisUrl, rules })
      : getDb().then((db) => createRateLimits({ store: 'postgres', db, rules }));
    globalForLimits.runpadRateLimits.catch(() => {
      globalForLimits.runpadRateLimits = undefined;
    });
  }
  return globalForLimits.runpadRateLimits;
}

/** What a limited guest reads: which limit, and when to try again, in words. */
export function limitMessage(decision: Extract<LimitDecision, { ok: false }>): string {
  const wait = decision.retryAfterSeconds < 90 ? `${decision.retryAfterSeconds} seconds` : decision.retryAfterSeconds < 5_400 ? `${Math.ceil(decision.retryAfterSeconds / 60)} minutes` : `${Math.ceil(decision.retryAfterSeconds / 3_600)} hours`;
  const which: Record<LimitKind, string> = { 'model-per-minute': 'too many requests to the model in the last minute', 'model-per-day': 'the daily number of requests to the model' };
  return `You have reached ${which[decision.kind]}. Try again in ${wait}.`;
}
