/**
 * Where the rate limits' counters live (lib/abuse/rate-limits.server.ts keeps the rules): one
 * rate-limiter-flexible limiter per kind, in Postgres (the rate_limits table, swept of expired
 * rows), in Redis (a connection that fails fast while Redis is down) or in process memory.
 */
import 'server-only';
import { lt, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '@/lib/db/client.server';
import { RATE_LIMITS_TABLE_STATEMENTS, rateLimits } from '@/lib/db/rate-limit-table.server';
import { rowsOf } from '@/lib/db/rows.server';
import type { Logger } from '@/lib/log/logger.server';

export type LimiterStoreOptions = { store: 'postgres'; db: Db } | { store: 'redis'; redisUrl: string } | { store: 'memory' };

/** What a limiter counts: `points` per `durationSeconds`. */
type Rule = { points: number; durationSeconds: number };

/** A store's limiters, one per key prefix, and how to let go of the store (its sweep, its connection). */
export type LimiterStore = { make(prefix: string, rule: Rule): RateLimiterAbstract; close(): Promise<void> };

const SWEEP_EVERY_MS = 5 * 60_000;
const SWEEP_GRACE_MS = 60_000;
const TABLE_LOCK = 72_310_002;

/**
 * Opens the store. `probe` is one limiter made and read at once in Postgres: the library loads
 * drizzle-orm with a hidden dynamic import, and a bundler that broke it fails here, not on every request.
 */
export async function openLimiterStore(options: LimiterStoreOptions, probe: { prefix: string; rule: Rule }, warn: (message: string, error: unknown) => void, log: Logger): Promise<LimiterStore> {
  if (options.store === 'postgres') {
    const { db } = options;
    await ensureTable(db);
    const make = (prefix: string, rule: Rule) =>
      new RateLimiterDrizzle({
        // The library's typings take `any` for both; the Db is a PgDatabase, which is what it needs.
        storeClient: db,
        schema: rateLimits,
        keyPrefix: prefix,
        points: rule.points,
        duration: rule.durationSeconds,
        // One sweep for all kinds (below) rather than one unstoppable timer per limiter.
        clearExpiredByTimeout: false,
      });
    await make(probe.prefix, probe.rule).get('__startup_probe__');
    const sweep = setInterval(() => {
      db.delete(rateLimits)
        .where(lt(rateLimits.expire, new Date(Date.now() - SWEEP_GRACE_MS)))
        .catch((error: unknown) => warn('rate limit sweep failed', error));
    }, SWEEP_EVERY_MS);
    sweep.unref();
    return { make, close: async () => clearInterval(sweep) };
  }
  if (options.store === 'redis') {
    const client = await connectRedis(options.redisUrl, {
      // Through the store failures' throttle: the commands that fail meanwhile say the same thing.
      down: (error) => warn('redis unreachable: rate limits count in process memory until it is back', error),
      back: () => log.info('redis back: rate limits count in Redis again'),
    });
    return {
      make: (prefix, rule) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: prefix,
          points: rule.points,
          duration: rule.durationSeconds,
          // Fail at once while disconnected (then the fallback applies) instead of queueing.
          rejectIfRedisNotReady: true,
        }),
      close: async () => {
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      },
    };
  }
  return { make: (prefix, rule) => new RateLimiterMemory({ keyPrefix: prefix, points: rule.points, duration: rule.durationSeconds }), close: async () => {} };
}

/**
 * Creates rate_limits if missing. Temporary, until the table is in lib/db/schema.server.ts and a
 * migration; guarded by an advisory lock because concurrent CREATE TABLE IF NOT EXISTS can still
 * collide on Postgres's catalogs.
 */
async function ensureTable(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TABLE_LOCK})`);
    // Checked first so an existing table is not locked by CREATE INDEX IF NOT EXISTS at every start.
    const rows = await rowsOf<{ exists: boolean }>(tx, sql`select to_regclass('rate_limits') is not null as "exists"`);
    if (rows[0]?.exists) return;
    for (const statement of RATE_LIMITS_TABLE_STATEMENTS) await tx.execute(sql.raw(statement));
  });
}

/**
 * An ioredis client that fails commands at once while disconnected (no offline queue, one retry),
 * so a Redis outage turns into fast store errors rather than requests waiting on reconnects. It
 * waits a moment for the first connection but does not fail without one: ioredis keeps
 * reconnecting, and the store-failure policy covers the gap.
 */
async function connectRedis(url: string, outage: { down: (error: unknown) => void; back: () => void }): Promise<Redis> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // An outage is logged once, with its cause, and its end once: not every reconnect attempt.
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    outage.down(error);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    outage.back();
  });
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    client.once('ready', done);
  });
  return client;
}
