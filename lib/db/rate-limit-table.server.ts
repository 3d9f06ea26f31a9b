/**
 * The table rate-limiter-flexible's RateLimiterDrizzle keeps its counters in: one row per
 * limiter key ("<prefix>:<kind>:<guest id>"), the points used in the current window and when the
 * window ends. The library reads and writes exactly these three columns by these property names
 * (key, points, expire), so they must not be renamed.
 *
 * Part of the schema (lib/db/schema.server.ts re-exports it; migration 0003 creates it); the chained
 * statement that takes points is lib/abuse/take-chain.server.ts. The SQL below
 * says IF NOT EXISTS, as the migration does, because createRateLimits also makes sure the table
 * exists when given a database that was not migrated by this app (tests, tools).
 */
import 'server-only';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
