/**
 * Taking points from a chain of rate-limit counters in one statement (lib/abuse/rate-limits.server.ts),
 * on the rate_limits table (lib/db/rate-limit-table.server.ts).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, type Queryable } from '@/lib/db/rows.server';

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
