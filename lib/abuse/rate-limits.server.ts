/**
 * Per-guest rate limits (model requests per minute and per day; more kinds can be added to
 * LimitKind) on rate-limiter-flexible, with the counters in a store every app instance shares:
 * - 'postgres': RateLimiterDrizzle over our Drizzle Db (PGlite or postgres-js alike). Each consume
 *   is one INSERT ... ON CONFLICT DO UPDATE ... RETURNING, so concurrent requests cannot both take
 *   the last point. Counters live in the rate_limits table (lib/db/rate-limit-table.server.ts). A request for
 *   several counters (consumeEvery) takes them all in one statement on the same rows, with the
 *   library's arithmetic (takeChain there): one round trip instead of one per counter, which a
 *   model request's first byte waits for.
 * - 'redis': RateLimiterRedis over ioredis (a Lua script: atomic on the server).
 * - 'memory': RateLimiterMemory, one process only (development, tests).
 * Keys are "<keyPrefix>:<kind>:<guest id>", so kinds never share a counter.
 *
 * What a refused request costs: rate-limiter-flexible always adds the points, then refuses if the
 * total went over. So
 * - consumeEvery() takes one point from each of several counters (each a kind and a key: the
 *   person's minute and day, the address's day, the instance's day), shortest window first, and
 *   stops at the first refusal: a request refused by the per-minute limit never reaches the
 *   per-day counters. If a later counter refuses, the points the earlier ones took are given back
 *   (reward()), whoever's they are: no counter keeps a point for a request another one refused.
 *   consumeAll() is the same for several kinds of one key.
 * - a refused consume of several points whose points would have fitted had the window not been so
 *   close to full gives its points back too, so it does not hide the capacity that was left.
 *   (A refused 1-point request needs nothing back: the window was already full.)
 * Giving back is a second store write, not a transaction: a refund that lands after its window
 * has ended would start the next window in credit, so none is attempted within
 * REFUND_MIN_WINDOW_LEFT_MS of the end; and if the refund itself fails it is logged and dropped
 * (the guest loses that point until the window ends, which errs on the safe side).
 *
 * When the store fails (Redis down, database unreachable, a call slower than storeTimeoutMs):
 * - onStoreError 'memory' (default): the request is counted by an in-process RateLimiterMemory
 *   with the same rules (the library's insuranceLimiter idea, done here so the failure is logged).
 *   Traffic stays limited, but per instance, so N instances allow up to N times the limit, and the
 *   counts start from zero. Requests are neither let through unlimited nor failed.
 * - onStoreError 'throw': consume/consumeAll/consumeEvery reject with RateLimitStoreError; map it to 503.
 */
import 'server-only';
import { RateLimiterMemory, RateLimiterRes, RLWrapperTimeouts, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '@/lib/db/client.server';
import { logger, type Logger } from '@/lib/log/logger.server';
import { withTimeout } from '@/lib/runtime/with-timeout';
import { takeChain, type ChainTaken } from './take-chain.server';
import { openLimiterStore, type LimiterStoreOptions } from './rate-limit-stores.server';

/**
 * Per person (guest or account): model requests per minute and per day. Per client address:
 * guests started, model requests. For the whole instance: model requests per day (one key).
 */
export type LimitKind = 'model-per-minute' | 'model-per-day' | 'guests-per-address' | 'model-per-address' | 'model-instance';
export type LimitRule = { points: number; durationSeconds: number };
/** The kinds a RateLimits counts; consuming a kind without a rule throws. */
export type LimitRules = Partial<Record<LimitKind, LimitRule>>;

export const LIMIT_KINDS: readonly LimitKind[] = ['model-per-minute', 'model-per-day', 'guests-per-address', 'model-per-address', 'model-instance'];

export type LimitDecision = { ok: true; remaining: number } | { ok: false; kind: LimitKind; retryAfterSeconds: number };
/** One counter: a kind, and whose it is (a person's id, an address, the instance's one key). */
export type LimitCounter = { kind: LimitKind; key: string };

export type RateLimitStore = 'postgres' | 'redis' | 'memory';

/** The store failed and the limits were created with onStoreError: 'throw'. Map to 503. */
export class RateLimitStoreError extends Error {
  readonly store: RateLimitStore;
  constructor(store: RateLimitStore, cause: unknown) {
    super(`The rate limit store (${store}) is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RateLimitStoreError';
    this.store = store;
  }
}

export interface RateLimits {
  /** Takes `points` (default 1) from one limit. */
  consume(kind: LimitKind, guestId: string, points?: number): Promise<LimitDecision>;
  /**
   * Takes one point from each limit, shortest window first, stopping at the first refusal (later
   * limits are not touched) and giving back what the earlier ones took. All or nothing is best
   * effort: the refunds are separate writes (see the module comment). `remaining` is the smallest
   * remainder among the kinds.
   */
  consumeAll(kinds: LimitKind[], guestId: string): Promise<LimitDecision>;
  /**
   * consumeAll across keys: one point from each counter, shortest window first (ties in the given
   * order), stopping at the first refusal and giving back what every earlier counter took.
   * `remaining` is the smallest remainder among the counters.
   */
  consumeEvery(counters: LimitCounter[]): Promise<LimitDecision>;
  /** Stops the sweep timer and closes the Redis connection it opened; a Db stays the caller's. */
  close(): Promise<void>;
  readonly store: RateLimitStore;
}

type CommonOptions = {
  rules: LimitRules;
  /** Prefix of every key (default "rl"); tests use a unique one per run. */
  keyPrefix?: string;
  /** See the module comment. Default 'memory'. */
  onStoreError?: 'memory' | 'throw';
  /** A store call slower than this counts as a store failure (default 2000 ms). */
  storeTimeoutMs?: number;
};

export type RateLimitsOptions = CommonOptions & LimiterStoreOptions;

/** No refund is attempted this close to the end of a window (see the module comment). */
const REFUND_MIN_WINDOW_LEFT_MS = 500;
/** Rows whose window ended this long ago are deleted by the sweep. */
/** At most one "store failing" warning per this interval per RateLimits. */
const WARN_EVERY_MS = 60_000;
/** Serializes creating the table when several instances start at once. */

type KindLimiter = { rule: LimitRule; primary: RateLimiterAbstract; fallback: RateLimiterMemory | null };
type Taken = { limiter: RateLimiterAbstract; points: number; remaining: number; msBeforeNext: number };
type Outcome = { ok: true; taken: Taken } | { ok: false; decision: Extract<LimitDecision, { ok: false }> };

export async function createRateLimits(options: RateLimitsOptions): Promise<RateLimits> {
  validateRules(options.rules);
  const keyPrefix = options.keyPrefix ?? 'rl';
  const onStoreError = options.onStoreError ?? 'memory';
  const timeoutMs = options.storeTimeoutMs ?? 2000;
  const store = options.store;
  const log = logger().child({ component: 'rate-limits', store });

  const warn = throttledWarn(log);

  const [probeKind, probeRule] = ruleEntries(options.rules)[0];
  const limiterStore = await openLimiterStore(options, { prefix: `${keyPrefix}:${probeKind}`, rule: probeRule }, warn, log);

  const limiters = limitersFor(options.rules, store, (kind, rule) => limiterStore.make(`${keyPrefix}:${kind}`, rule), keyPrefix, timeoutMs);
  const limiterOf = (kind: LimitKind): KindLimiter => {
    const limiter = limiters[kind];
    if (!limiter) throw new RangeError(`no rate limit rule for ${kind}`);
    return limiter;
  };

  let closed = false;

  const refuse = (kind: LimitKind, msBeforeNext: number): Extract<Outcome, { ok: false }> => ({
    ok: false,
    decision: { ok: false, kind, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) },
  });

  const refund = async (taken: Taken, guestId: string) => {
    if (taken.msBeforeNext < REFUND_MIN_WINDOW_LEFT_MS) return;
    try {
      await taken.limiter.reward(guestId, taken.points);
    } catch (error) {
      warn('rate limit refund failed', error);
    }
  };

  /** One limiter, one attempt; a refusal is an Outcome, a store failure throws. */
  const attemptOn = async (limiter: RateLimiterAbstract, kind: LimitKind, guestId: string, points: number): Promise<Outcome> => {
    try {
      const res = await limiter.consume(guestId, points);
      return { ok: true, taken: { limiter, points, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext } };
    } catch (reason) {
      if (!(reason instanceof RateLimiterRes)) throw reason;
      // Points that would have fitted before this request pushed the total over: give them back.
      if (points > 1 && reason.consumedPoints - points < limiterOf(kind).rule.points) {
        await refund({ limiter, points, remaining: 0, msBeforeNext: reason.msBeforeNext }, guestId);
      }
      return refuse(kind, reason.msBeforeNext);
    }
  };

  const attempt = async (kind: LimitKind, guestId: string, points: number): Promise<Outcome> => {
    if (closed) throw new Error('createRateLimits: used after close()');
    const { primary, fallback } = limiterOf(kind);
    try {
      return await attemptOn(primary, kind, guestId, points);
    } catch (error) {
      if (!fallback || onStoreError === 'throw') throw new RateLimitStoreError(store, error);
      warn('rate limit store failed; counting in process memory', error);
      return attemptOn(fallback, kind, guestId, points);
    }
  };

  /** One point from each counter in turn, stopping at the first refusal and giving back what the earlier ones took. */
  const takeInTurn = async (ordered: LimitCounter[], attemptOne: (kind: LimitKind, key: string) => Promise<Outcome>): Promise<LimitDecision> => {
    const taken: Array<{ taken: Taken; key: string }> = [];
    const giveBack = () => Promise.all(taken.map((t) => refund(t.taken, t.key)));
    try {
      for (const { kind, key } of ordered) {
        const outcome = await attemptOne(kind, key);
        if (!outcome.ok) {
          await giveBack();
          return outcome.decision;
        }
        taken.push({ taken: outcome.taken, key });
      }
    } catch (error) {
      await giveBack();
      throw error;
    }
    return { ok: true, remaining: Math.min(...taken.map((t) => t.taken.remaining)) };
  };

  /** The same in one statement (the Postgres store): the chain stops where the loop would. */
  const takeChained = async (db: Db, ordered: LimitCounter[]): Promise<LimitDecision> => {
    const now = Date.now();
    const steps = ordered.map(({ kind, key }) => ({ key: `${keyPrefix}:${kind}:${key}`, limit: limiterOf(kind).rule.points, windowEndsAt: new Date(now + limiterOf(kind).rule.durationSeconds * 1000) }));
    let chain: ChainTaken[];
    try {
      chain = await withTimeout(takeChain(db, steps, new Date(now)), timeoutMs, 'the rate limit store');
    } catch (error) {
      if (onStoreError === 'throw') throw new RateLimitStoreError(store, error);
      warn('rate limit store failed; counting in process memory', error);
      return takeInTurn(ordered, (kind, key) => attemptOn(limiterOf(kind).fallback ?? limiterOf(kind).primary, kind, key, 1));
    }
    const msBeforeNext = (step: ChainTaken) => (step.expiresAtMs === null ? -1 : Math.max(step.expiresAtMs - Date.now(), 0));
    const refusedAt = chain.findIndex((step, i) => step.points > steps[i].limit);
    if (refusedAt === -1) return { ok: true, remaining: Math.min(...chain.map((step, i) => Math.max(steps[i].limit - step.points, 0))) };
    await Promise.all(
      chain.slice(0, refusedAt).map((step, i) => refund({ limiter: limiterOf(ordered[i].kind).primary, points: 1, remaining: steps[i].limit - step.points, msBeforeNext: msBeforeNext(step) }, ordered[i].key)),
    );
    return refuse(ordered[refusedAt].kind, msBeforeNext(chain[refusedAt])).decision;
  };

  const consumeEvery = async (counters: LimitCounter[]): Promise<LimitDecision> => {
    for (const { key } of counters) checkGuest(key);
    if (closed) throw new Error('createRateLimits: used after close()');
    // Shortest window first: it is the one that refuses in a burst, and a request it refuses
    // must not spend a point of a longer window (which would take much longer to come back).
    // The sort is stable, so counters of equal windows are taken in the caller's order.
    const unique = [...new Map(counters.map((counter) => [`${counter.kind}\n${counter.key}`, counter])).values()];
    const ordered = unique.sort((a, b) => limiterOf(a.kind).rule.durationSeconds - limiterOf(b.kind).rule.durationSeconds);
    if (ordered.length === 0) throw new RangeError('consumeAll and consumeEvery need at least one counter');
    // In Postgres, every counter of a request in one statement rather than one per counter.
    if (options.store === 'postgres') return takeChained(options.db, ordered);
    return takeInTurn(ordered, (kind, key) => attempt(kind, key, 1));
  };

  return {
    store,
    async consume(kind, guestId, points = 1) {
      checkGuest(guestId);
      if (!Number.isInteger(points) || points < 1) throw new RangeError(`points must be a positive integer, not ${points}`);
      const outcome = await attempt(kind, guestId, points);
      return outcome.ok ? { ok: true, remaining: outcome.taken.remaining } : outcome.decision;
    },
    async consumeAll(kinds, guestId) {
      checkGuest(guestId);
      return consumeEvery(kinds.map((kind) => ({ kind, key: guestId })));
    },
    consumeEvery,
    async close() {
      if (closed) return;
      closed = true;
      await limiterStore.close();
    },
  };
}

/** A warning at most once a minute, saying how many were held back since the last one. */
function throttledWarn(log: Logger): (message: string, error: unknown) => void {
  let lastWarnAt = 0;
  let suppressed = 0;
  return (message, error) => {
    const now = Date.now();
    if (now - lastWarnAt < WARN_EVERY_MS) {
      suppressed += 1;
      return;
    }
    lastWarnAt = now;
    // Messages only: a failed query's full error carries its parameters, i.e. guest ids.
    log.warn({ error: describeError(error), suppressed }, message);
    suppressed = 0;
  };
}

/** Each ruled kind's limiter in the store, bounded in time and backed by one in memory unless the store is memory. */
function limitersFor(rules: LimitRules, store: RateLimitStore, make: (kind: LimitKind, rule: LimitRule) => RateLimiterAbstract, keyPrefix: string, timeoutMs: number): Partial<Record<LimitKind, KindLimiter>> {
  const limiters: Partial<Record<LimitKind, KindLimiter>> = {};
  for (const [kind, rule] of ruleEntries(rules)) {
    const base = make(kind, rule);
    limiters[kind] =
      store === 'memory'
        ? { rule, primary: base, fallback: null }
        : {
            rule,
            // A hung store (a half-open TCP connection, a locked row) must not hang the request.
            // The wrapper's typings make it a RateLimiterInsuredAbstract, a RateLimiterAbstract.
            primary: new RLWrapperTimeouts({ limiter: base, timeoutMs }),
            fallback: new RateLimiterMemory({ keyPrefix: `${keyPrefix}:${kind}`, points: rule.points, duration: rule.durationSeconds }),
          };
  }
  return limiters;
}

function ruleEntries(rules: LimitRules): Array<[LimitKind, LimitRule]> {
  return LIMIT_KINDS.flatMap((kind) => (rules[kind] ? [[kind, rules[kind]] as [LimitKind, LimitRule]] : []));
}

function validateRules(rules: LimitRules) {
  if (ruleEntries(rules).length === 0) throw new RangeError('rate limits need at least one rule');
  for (const [kind, rule] of ruleEntries(rules)) {
    // Whole seconds: Redis expiries are set in seconds, and a fraction would be truncated there.
    if (!rule || !Number.isInteger(rule.points) || rule.points < 1 || !Number.isInteger(rule.durationSeconds) || rule.durationSeconds < 1) {
      throw new RangeError(`rate limit rule for ${kind} needs positive integer points and durationSeconds, got ${JSON.stringify(rule)}`);
    }
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  // Drizzle's "Failed query: <sql> params: <values>" is cut before the SQL.
  return `${error.message.startsWith('Failed query:') ? 'Failed query' : error.message}${cause}`;
}

function checkGuest(guestId: string) {
  // An empty id would put every such request on one shared counter.
  if (typeof guestId !== 'string' || guestId.length === 0) throw new TypeError('guestId must be a non-empty string');
}
