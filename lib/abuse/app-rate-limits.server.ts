/**
 * The app's rate limits, opened once per process: counters in Redis when REDIS_URL is set
 * (shared by every instance; keys `<RUNPAD_REDIS_PREFIX>rl:<kind>:<key>`), else in the app's
 * Postgres (embedded or server).
 *
 * A model request passes three gates, each its own counter (./model-request-limits.ts): the
 * person's (per minute and per day; an admin may set other numbers for one person, which then
 * count on the same counters), the client address's (per day, so minting guests does not reset
 * it), and the instance's daily ceiling when the operator set one. They are taken together: a
 * request one of them refuses costs no point of the others. Starting a guest counts against the
 * address too.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { logger } from '@/lib/log/logger.server';
import { limitRules, modelRequestCounters, type PersonalLimits } from './model-request-limits.server';
import { createRateLimits, type LimitDecision, type LimitKind, type LimitRules, type RateLimits } from './rate-limits.server';

const globalForLimits = globalThis as unknown as { runpadRateLimits?: Map<string, Promise<RateLimits>> };

function open(rules: LimitRules): Promise<RateLimits> {
  const config = getConfig();
  globalForLimits.runpadRateLimits ??= new Map();
  const key = JSON.stringify(rules);
  const known = globalForLimits.runpadRateLimits.get(key);
  if (known) return known;
  // In Redis under the app's prefix (RUNPAD_REDIS_PREFIX), so a shared Redis holds no key of ours outside it.
  const created = config.redisUrl ? createRateLimits({ store: 'redis', redisUrl: config.redisUrl, rules, keyPrefix: `${config.redisPrefix}rl` }) : getDb().then((db) => createRateLimits({ store: 'postgres', db, rules }));
  globalForLimits.runpadRateLimits.set(key, created);
  created.catch(() => globalForLimits.runpadRateLimits?.delete(key));
  return created;
}

/** The instance's default rules, for every kind it counts. */
export function getRateLimits(): Promise<RateLimits> {
  return open(limitRules(getConfig().limits));
}

/** Counts one model request against the person, their address and the instance, all or none. */
export async function admitModelRequest(personId: string, address: string, personal: PersonalLimits): Promise<LimitDecision> {
  const { limits } = getConfig();
  // A person without numbers of their own gets the default rules, hence the same opened limits.
  const rateLimits = await open(limitRules(limits, personal));
  const decision = await rateLimits.consumeEvery(modelRequestCounters(personId, address, limits));
  return decision.ok ? decision : refused(decision, personId);
}

/** Counts one new guest against its address. */
export async function admitNewGuest(address: string): Promise<LimitDecision> {
  const decision = await (await getRateLimits()).consume('guests-per-address', address);
  return decision.ok ? decision : refused(decision, null);
}

function refused(decision: Extract<LimitDecision, { ok: false }>, personId: string | null): LimitDecision {
  // Addresses are not logged: the kind and the person are enough to tell what happened.
  logger().warn({ component: 'rate-limits', kind: decision.kind, person: personId, retryAfterSeconds: decision.retryAfterSeconds }, 'limit refused a request');
  return decision;
}

/** What a limited person reads: which limit, and when to try again, in words. */
export function limitMessage(decision: Extract<LimitDecision, { ok: false }>): string {
  const wait = waitWords(decision.retryAfterSeconds);
  const which: Record<LimitKind, string> = {
    'model-per-minute': 'You have reached too many requests to the model in the last minute',
    'model-per-day': 'You have reached the daily number of requests to the model',
    'guests-per-address': 'Too many new guest sessions have started from your network',
    'model-per-address': 'Your network has reached the daily number of requests to the model',
    'model-instance': 'This Runpad has reached its daily number of requests to the model for everyone',
  };
  return `${which[decision.kind]}. Try again in ${wait}.`;
}

/** "45 seconds", "12 minutes", "5 hours": how long until a limit lets the next request through. */
export function waitWords(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : seconds < 5_400 ? `${Math.ceil(seconds / 60)} minutes` : `${Math.ceil(seconds / 3_600)} hours`;
}
