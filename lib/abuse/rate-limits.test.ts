/**
 * The rate limits, run against every store for real: PGlite, a Postgres server (a fresh database
 * per run), Redis at REDIS_URL or 127.0.0.1:6379 (a unique key prefix per run, deleted after), and
 * process memory. A store that is not reachable is skipped with a printed notice.
 */
import { eq } from 'drizzle-orm';
import { deleteKeys, redisUnavailable, TEST_REDIS_URL, withRedis } from '@/lib/testing/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DbHandle } from '@/lib/db/client.server';
import { openEmbedded } from '@/lib/db/pglite-cluster.server';
import { pgliteBackend, serverBackend, type TestBackend } from '@/lib/testing/databases';
import { limitRules, modelRequestCounters } from './model-request-limits.server';
import { RATE_LIMITS_TABLE_SQL, rateLimits } from '@/lib/db/rate-limit-table.server';
import { createRateLimits, RateLimitStoreError, type LimitRules, type RateLimits, type RateLimitsOptions } from './rate-limits.server';

const REDIS_URL = TEST_REDIS_URL;

type StoreBackend = {
  name: string;
  /** null when usable, else why it is skipped */
  setUp: () => Promise<string | null>;
  options: () => Omit<RateLimitsOptions, 'rules' | 'keyPrefix'>;
  /** Whether two RateLimits on it share counters (not so for process memory). */
  shared: boolean;
  /** The points stored under a full key, null if there is no entry; undefined if it cannot look. */
  peek: (key: string) => Promise<number | null | undefined>;
  tearDown: (keyPrefix: string) => Promise<void>;
};

function dbStore(backend: TestBackend): StoreBackend {
  let handle: DbHandle | null = null;
  return {
    name: backend.name,
    shared: true,
    setUp: async () => {
      const reason = await backend.available();
      if (reason) return reason;
      handle = await backend.open();
      return null;
    },
    options: () => ({ store: 'postgres', db: handle!.db }),
    peek: async (key) => {
      const [row] = await handle!.db.select().from(rateLimits).where(eq(rateLimits.key, key));
      return row ? row.points : null;
    },
    tearDown: async () => {
      await handle?.close();
      await backend.cleanup();
    },
  };
}

function redisStore(): StoreBackend {
  return {
    name: 'Redis',
    shared: true,
    setUp: redisUnavailable,
    options: () => ({ store: 'redis', redisUrl: REDIS_URL }),
    peek: (key) =>
      withRedis(async (client) => {
        const value = await client.get(key);
        return value === null ? null : Number(value);
      }),
    tearDown: async (keyPrefix) => {
      expect(await deleteKeys(keyPrefix)).toBe(0);
    },
  };
}

const memoryStore: StoreBackend = { name: 'memory', shared: false, peek: async () => undefined, setUp: async () => null, options: () => ({ store: 'memory' }), tearDown: async () => undefined };

const rules = (minute: [number, number], day: [number, number]): LimitRules => ({
  'model-per-minute': { points: minute[0], durationSeconds: minute[1] },
  'model-per-day': { points: day[0], durationSeconds: day[1] },
});

/**
 * A database that only the limiter writes to: an empty embedded one (the store makes its table),
 * without the app's migrations, which the fallback tests do not need.
 */
async function bareDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  const [{ PGlite }, { drizzle }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  const client = await openEmbedded(PGlite, null);
  return { db: drizzle(client) as unknown as Db, close: () => client.close() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of [dbStore(pgliteBackend()), dbStore(serverBackend()), redisStore(), memoryStore]) {
  describe(`rate limits on ${backend.name}`, () => {
    let skipReason: string | null = null;
    const keyPrefix = `rl-test-${Math.random().toString(36).slice(2, 10)}`;
    const opened: RateLimits[] = [];
    // A fresh guest per test, so the tests do not see each other's counters.
    const guest = () => `guest-${crypto.randomUUID()}`;

    beforeAll(async () => {
      skipReason = await backend.setUp();
      if (skipReason) console.warn(`[rate limits] skipping ${backend.name}: ${skipReason}`);
    });
    afterAll(async () => {
      await Promise.all(opened.map((limits) => limits.close()));
      await backend.tearDown(keyPrefix);
    });

    const open = async (limitRules: LimitRules) => {
      const limits = await createRateLimits({ ...backend.options(), rules: limitRules, keyPrefix, onStoreError: 'throw' } as RateLimitsOptions);
      opened.push(limits);
      return limits;
    };
    const live = (name: string, body: () => Promise<void>) =>
      it(name, async (context) => {
        if (skipReason) context.skip(skipReason);
        await body();
      });

    live('allows N, then refuses with a whole-second retry within the window', async () => {
      const limits = await open(rules([3, 60], [100, 3600]));
      expect(limits.store).toBe(backend.options().store);
      const g = guest();
      for (const remaining of [2, 1, 0]) expect(await limits.consume('model-per-minute', g)).toEqual({ ok: true, remaining });
      const refused = await limits.consume('model-per-minute', g);
      expect(refused).toMatchObject({ ok: false, kind: 'model-per-minute' });
      if (refused.ok) throw new Error('unreachable');
      expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    live('keeps kinds and guests apart', async () => {
      const limits = await open(rules([2, 60], [5, 3600]));
      const [a, b] = [guest(), guest()];
      await limits.consume('model-per-minute', a);
      await limits.consume('model-per-minute', a);
      expect((await limits.consume('model-per-minute', a)).ok).toBe(false);
      expect(await limits.consume('model-per-day', a)).toEqual({ ok: true, remaining: 4 });
      expect(await limits.consume('model-per-minute', b)).toEqual({ ok: true, remaining: 1 });
    });

    live('gives the points back once the window has passed', async () => {
      const limits = await open(rules([2, 1], [100, 3600]));
      const g = guest();
      await limits.consume('model-per-minute', g);
      await limits.consume('model-per-minute', g);
      expect((await limits.consume('model-per-minute', g)).ok).toBe(false);
      // Poll (each refused poll is itself counted in the old window) until the window resets.
      let decision = await limits.consume('model-per-minute', g);
      for (let tries = 0; !decision.ok && tries < 100; tries += 1) {
        await sleep(100);
        decision = await limits.consume('model-per-minute', g);
      }
      expect(decision).toEqual({ ok: true, remaining: 1 });
      // A whole new window: the refused polls of the old one do not carry over.
      expect(await limits.consume('model-per-minute', g)).toEqual({ ok: true, remaining: 0 });
      expect((await limits.consume('model-per-minute', g)).ok).toBe(false);
    });

    live('allows exactly the limit among 30 concurrent requests', async () => {
      const limits = await open(rules([10, 60], [100, 3600]));
      const g = guest();
      const decisions = await Promise.all(Array.from({ length: 30 }, () => limits.consume('model-per-minute', g)));
      expect(decisions.filter((d) => d.ok)).toHaveLength(10);
      expect(decisions.filter((d) => !d.ok)).toHaveLength(20);
      expect(decisions.flatMap((d) => (d.ok ? [d.remaining] : [])).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    live('a request for several counters at once: exactly the limit among 30 concurrent ones, and no point kept by the refused', async () => {
      const limits = await open(rules([10, 60], [100, 3600]));
      const g = guest();
      const decisions = await Promise.all(Array.from({ length: 30 }, () => limits.consumeAll(['model-per-minute', 'model-per-day'], g)));
      expect(decisions.filter((d) => d.ok)).toHaveLength(10);
      expect(decisions.filter((d) => !d.ok).every((d) => !d.ok && d.kind === 'model-per-minute')).toBe(true);
      expect(decisions.flatMap((d) => (d.ok ? [d.remaining] : [])).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(await limits.consume('model-per-day', g)).toEqual({ ok: true, remaining: 89 });
    });

    live('consumeAll refused by the minute limit leaves the day counter alone', async () => {
      const limits = await open(rules([2, 60], [100, 3600]));
      const g = guest();
      expect(await limits.consumeAll(['model-per-day', 'model-per-minute'], g)).toEqual({ ok: true, remaining: 1 });
      expect(await limits.consumeAll(['model-per-day', 'model-per-minute'], g)).toEqual({ ok: true, remaining: 0 });
      for (let i = 0; i < 3; i += 1) {
        expect(await limits.consumeAll(['model-per-day', 'model-per-minute'], g)).toMatchObject({ ok: false, kind: 'model-per-minute' });
      }
      // 2 taken by the allowed requests, this is the third: the refused ones took none.
      expect(await limits.consume('model-per-day', g)).toEqual({ ok: true, remaining: 97 });
    });

    live('consumeAll refused by the minute limit never writes the day counter', async () => {
      const limits = await open(rules([1, 60], [100, 3600]));
      const g = guest();
      await limits.consume('model-per-minute', g);
      expect(await limits.consumeAll(['model-per-day', 'model-per-minute'], g)).toMatchObject({ ok: false, kind: 'model-per-minute' });
      // Not even taken and given back: the store has no day entry for this guest at all.
      const stored = await backend.peek(`${keyPrefix}:model-per-day:${g}`);
      if (stored !== undefined) expect(stored).toBeNull();
      expect(await backend.peek(`${keyPrefix}:model-per-minute:${g}`)).not.toBe(null);
    });

    live('consumeAll refused by the day limit gives the minute point back', async () => {
      const limits = await open(rules([5, 60], [2, 3600]));
      const g = guest();
      await limits.consumeAll(['model-per-minute', 'model-per-day'], g);
      await limits.consumeAll(['model-per-minute', 'model-per-day'], g);
      expect(await limits.consumeAll(['model-per-minute', 'model-per-day'], g)).toMatchObject({ ok: false, kind: 'model-per-day' });
      expect(await limits.consume('model-per-minute', g)).toEqual({ ok: true, remaining: 2 });
    });

    live('a refused request for several points does not hide the points left', async () => {
      const limits = await open(rules([5, 60], [100, 3600]));
      const g = guest();
      expect(await limits.consume('model-per-minute', g, 3)).toEqual({ ok: true, remaining: 2 });
      expect((await limits.consume('model-per-minute', g, 3)).ok).toBe(false);
      expect(await limits.consume('model-per-minute', g, 2)).toEqual({ ok: true, remaining: 0 });
    });

    live('a model request refused by the address or the instance keeps no point of any other counter', async () => {
      const settings = { modelRequestsPerMinute: 2, modelRequestsPerDay: 50, guestsPerAddressPerHour: 10, modelRequestsPerAddressPerDay: 3, instanceModelRequestsPerDay: 4 };
      const limits = await open(limitRules(settings));
      const [a, b, c] = [guest(), guest(), guest()];
      const [home, office] = [`address-${crypto.randomUUID()}`, `address-${crypto.randomUUID()}`];
      const request = (person: string, address: string) => limits.consumeEvery(modelRequestCounters(person, address, settings));
      for (const [person, address] of [[a, home], [b, home], [a, home]]) expect((await request(person, address)).ok).toBe(true);
      // The address is spent: b keeps its minute and day points, and the instance is not reached.
      expect(await request(b, home)).toMatchObject({ ok: false, kind: 'model-per-address' });
      // a's minute is spent: the office's counter is not even written.
      expect(await request(a, office)).toMatchObject({ ok: false, kind: 'model-per-minute' });
      const officeKey = `${keyPrefix}:model-per-address:${office}`;
      const stored = await backend.peek(officeKey);
      if (stored !== undefined) expect(stored).toBeNull();
      expect((await request(c, office)).ok).toBe(true);
      // The instance's 4 are spent: b and the office get their points back.
      expect(await request(b, office)).toMatchObject({ ok: false, kind: 'model-instance' });
      expect(await limits.consume('model-per-minute', b)).toEqual({ ok: true, remaining: 0 });
      expect(await limits.consume('model-per-day', b)).toEqual({ ok: true, remaining: 48 });
      expect(await limits.consume('model-per-address', office)).toEqual({ ok: true, remaining: 1 });
    });

    // Process memory is per instance by design, so this one is for the shared stores only.
    if (backend.shared) live('instances on the same store share counters', async () => {
      const [one, two] = [await open(rules([3, 60], [100, 3600])), await open(rules([3, 60], [100, 3600]))];
      const g = guest();
      await one.consume('model-per-minute', g);
      await two.consume('model-per-minute', g);
      expect(await one.consume('model-per-minute', g)).toEqual({ ok: true, remaining: 0 });
      expect((await two.consume('model-per-minute', g)).ok).toBe(false);
    });
  });
}

describe('rate limits when the store fails', () => {
  const limitRules = rules([2, 60], [100, 3600]);

  it('falls back to a per-process limit when Redis is unreachable, or throws RateLimitStoreError', async () => {
    // Nothing listens on port 1: connections are refused at once.
    const [limits, strict] = await Promise.all([
      createRateLimits({ store: 'redis', redisUrl: 'redis://127.0.0.1:1', rules: limitRules }),
      createRateLimits({ store: 'redis', redisUrl: 'redis://127.0.0.1:1', rules: limitRules, onStoreError: 'throw' }),
    ]);
    try {
      expect(await limits.consume('model-per-minute', 'g')).toEqual({ ok: true, remaining: 1 });
      expect(await limits.consumeAll(['model-per-minute', 'model-per-day'], 'g')).toEqual({ ok: true, remaining: 0 });
      expect(await limits.consume('model-per-minute', 'g')).toMatchObject({ ok: false, kind: 'model-per-minute' });
      await expect(strict.consume('model-per-minute', 'g')).rejects.toBeInstanceOf(RateLimitStoreError);
      await expect(strict.consumeAll(['model-per-minute'], 'g')).rejects.toMatchObject({ name: 'RateLimitStoreError', store: 'redis' });
    } finally {
      await limits.close();
      await strict.close();
    }
  });

  it('falls back when the database goes away', async () => {
    const handle = await bareDb();
    const limits = await createRateLimits({ store: 'postgres', db: handle.db, rules: limitRules });
    try {
      expect(await limits.consume('model-per-minute', 'g')).toEqual({ ok: true, remaining: 1 });
      await handle.close();
      // The store's count (1) is gone with it; the fallback counts from zero in this process.
      expect(await limits.consume('model-per-minute', 'g')).toEqual({ ok: true, remaining: 1 });
      expect(await limits.consume('model-per-minute', 'g')).toEqual({ ok: true, remaining: 0 });
      expect((await limits.consume('model-per-minute', 'g')).ok).toBe(false);
    } finally {
      await limits.close();
    }
  });

  it('a request for several counters falls back when the database goes away, or throws RateLimitStoreError', async () => {
    const handle = await bareDb();
    const limits = await createRateLimits({ store: 'postgres', db: handle.db, rules: limitRules });
    const strict = await createRateLimits({ store: 'postgres', db: handle.db, rules: limitRules, onStoreError: 'throw' });
    try {
      expect(await limits.consumeAll(['model-per-minute', 'model-per-day'], 'g')).toEqual({ ok: true, remaining: 1 });
      await handle.close();
      await expect(strict.consumeAll(['model-per-minute', 'model-per-day'], 'g')).rejects.toMatchObject({ name: 'RateLimitStoreError', store: 'postgres' });
      // Counted from zero in this process, with the same rules.
      expect(await limits.consumeAll(['model-per-minute', 'model-per-day'], 'g')).toEqual({ ok: true, remaining: 1 });
      expect(await limits.consumeAll(['model-per-minute', 'model-per-day'], 'g')).toEqual({ ok: true, remaining: 0 });
      expect(await limits.consumeAll(['model-per-minute', 'model-per-day'], 'g')).toMatchObject({ ok: false, kind: 'model-per-minute' });
    } finally {
      await limits.close();
      await strict.close();
    }
  });
});

describe('rate limit rules and table', () => {
  it('rejects rules and arguments that would not limit anything sensibly', async () => {
    await expect(createRateLimits({ store: 'memory', rules: rules([0, 60], [1, 1]) })).rejects.toThrow(RangeError);
    await expect(createRateLimits({ store: 'memory', rules: rules([1, 0.5], [1, 1]) })).rejects.toThrow(RangeError);
    const limits = await createRateLimits({ store: 'memory', rules: rules([20, 60], [500, 86_400]) });
    await expect(limits.consume('model-per-minute', '')).rejects.toThrow(TypeError);
    await expect(limits.consume('model-per-minute', 'g', 1.5)).rejects.toThrow(RangeError);
    await expect(limits.consumeAll([], 'g')).rejects.toThrow(RangeError);
  });

  it('the exported SQL creates the table the limiter uses, and running it again is harmless', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const client = await openEmbedded(PGlite, null);
    try {
      await client.exec(RATE_LIMITS_TABLE_SQL);
      await client.exec(RATE_LIMITS_TABLE_SQL);
      const columns = await client.query<{ column_name: string; data_type: string; is_nullable: string }>(
        `select column_name, data_type, is_nullable from information_schema.columns where table_name = 'rate_limits' order by ordinal_position`,
      );
      expect(columns.rows).toEqual([
        { column_name: 'key', data_type: 'text', is_nullable: 'NO' },
        { column_name: 'points', data_type: 'integer', is_nullable: 'NO' },
        { column_name: 'expire', data_type: 'timestamp with time zone', is_nullable: 'YES' },
      ]);
    } finally {
      await client.close();
    }
  });
});
