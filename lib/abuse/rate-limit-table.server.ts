/**
 * The table rate-limiter-flexible's RateLimiterDrizzle keeps its counters in: one row per
 * limiter key ("<prefix>:<kind>:<guest id>"), the points used in the current window and when the
 * window ends. The library reads and writes exactly these three columns by these property names
 * (key, points, expire), so they must not be renamed.
 *
 * Part of the schema (lib/db/schema.server.ts re-exports it; migration 0003 creates it). The SQL below
 * says IF NOT EXISTS, as the migration does, because createRateLimits also makes sure the table
 * exists when given a database that was not migrated by this app (tests, tools).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { rowsOf, type Queryable } from '@/lib/db/rows.server';

export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    // With time zone: the library compares it with JS Dates it sends as ISO strings in UTC, and a
    // plain timestamp would be read back in the server's zone. Null means "never expires"
    // (the library's convention); this app always sets it.
    expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
  },
  // The periodic sweep deletes by expire; without an index it scans every guest's rows.
  (t) => [index('rate_limits_expire').on(t.expire)],
);

/** One statement per entry, for drivers that run a single statement per call. */
export const RATE_LIMITS_TABLE_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS "rate_limits" (
  "key" text PRIMARY KEY NOT NULL,
  "points" integer DEFAULT 0 NOT NULL,
  "expire" timestamp with time zone
)`,
  `CREATE INDEX IF NOT EXISTS "rate_limits_expire" ON "rate_limits" USING btree ("expire")`,
] as const;

/** The exact DDL for the table above, for a migration. */
export const RATE_LIMITS_TABLE_SQL = `${RATE_LIMITS_TABLE_STATEMENTS.join(';\n')};\n`;

/** One counter of a chain: its full key, its limit, and when a window started now would end. */
export type ChainStep = { key: string; limit: number; windowEndsAt: Date };
/** What a step of the chain did: its counter's points after this request, and when its window ends (ms since the epoch; null: never). */
export type ChainTaken = { points: number; expiresAtMs: number | null };

/**
 * Takes one point from each counter in order, in one statement, stopping after the first one
 * that went over its limit: the same rows and arithmetic as the library's one-key upsert (a window
 * that has ended starts again at 1), chained so that a step runs only when the one before stayed
 * within its limit. Each step is atomic on its row, so concurrent requests cannot both take the
 * last point. Returns what each step that ran did, in order (a shorter list: the chain stopped).
 */
export async function takeChain(db: Queryable, steps: readonly ChainStep[], now: Date): Promise<ChainTaken[]> {
  if (steps.length === 0) return [];
  const at = now.toISOString();
  const upsert = (step: ChainStep, i: number) => {
    // The first step always runs; each later one only if the one before stayed within its limit.
    const source = i === 0 ? sql`values (${step.key}, 1, ${step.windowEndsAt.toISOString()}::timestamptz)` : sql`select ${step.key}, 1, ${step.windowEndsAt.toISOString()}::timestamptz from ${sql.raw(`c${i - 1}`)} where points <= ${steps[i - 1].limit}`;
    return sql`${sql.raw(`c${i}`)} as (
      insert into rate_limits as r (key, points, expire) ${source}
      on conflict (key) do update set
        points = case when r.expire <= ${at}::timestamptz then 1 else r.points + 1 end,
        expire = case when r.expire <= ${at}::timestamptz then excluded.expire else r.expire end
      returning ${i}::int as step, r.points, (extract(epoch from r.expire) * 1000)::float8 as expires_at_ms
    )`;
  };
  const results = sql.join(
    steps.map((_, i) => sql`select step, points, expires_at_ms from ${sql.raw(`c${i}`)}`),
    sql` union all `,
  );
  const rows = await rowsOf<{ step: number; points: number; expires_at_ms: number | null }>(db, sql`with ${sql.join(steps.map(upsert), sql`, `)} ${results}`);
  return rows
    .sort((a, b) => a.step - b.step)
    .map((row) => ({ points: Number(row.points), expiresAtMs: row.expires_at_ms === null ? null : Number(row.expires_at_ms) }));
}
