/**
 * The model_usage table: the one module that writes it (a model call's reservation before it is
 * made, its tokens and cost when it ends, and a guest's rows moving to the account it signs in to) and the reads of it (a person's tokens in a
 * window, for budgets; a period's totals by person and model, for the admin page).
 */
import 'server-only';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { errorChain, errorCode } from '../pg-errors.server';
import { authUsers, modelUsage, users } from '../schema.server';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type UsageKind = 'answer' | 'title';

export type UsageRecord = {
  personId: string;
  conversationId: string | null;
  modelId: string;
  kind: UsageKind;
  inputTokens: number;
  outputTokens: number;
  /** USD at the price configured now; null when the model has no price. */
  costUsd: number | null;
};

/**
 * A call whose conversation was deleted, or whose guest signed in and was merged away, while it
 * ran keeps its numbers: written again without the link that no longer exists.
 */
export async function recordModelUsage(db: Db, record: UsageRecord): Promise<void> {
  try {
    await db.insert(modelUsage).values(record);
  } catch (error) {
    if (!errorChain(error).some((e) => errorCode(e) === '23503')) throw error; // foreign_key_violation
    const [person] = await db.select({ id: users.id }).from(users).where(eq(users.id, record.personId));
    await db.insert(modelUsage).values({ ...record, personId: person ? record.personId : null, conversationId: null });
  }
}

/** A call about to be made: whose, which model, what for, and the tokens it is estimated to use. */
export type UsageReservation = Pick<UsageRecord, 'personId' | 'modelId' | 'kind'> & { tokens: number };

/**
 * Reserves a call's estimated tokens, atomically against the person's budget: under a lock on the
 * person's row (concurrent reservations of one person wait for each other, on PGlite and Postgres
 * alike), the tokens of the window (calls ended and reservations outstanding) are summed, and the
 * reservation is written only if they are under `budget` (always, when `budget` is null). The
 * reservation is a model_usage row, not settled, until settleModelUsage replaces it.
 */
export async function reserveModelUsage(db: Db, reservation: UsageReservation, budget: number | null, since: Date): Promise<{ id: number } | { used: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${users} where ${users.id} = ${reservation.personId} for update`);
    if (budget !== null) {
      const [row] = await tx
        .select({ tokens })
        .from(modelUsage)
        .where(and(eq(modelUsage.personId, reservation.personId), gt(modelUsage.createdAt, since)));
      const used = row?.tokens ?? 0;
      if (used >= budget) return { used };
    }
    const [inserted] = await tx
      .insert(modelUsage)
      .values({ personId: reservation.personId, conversationId: null, modelId: reservation.modelId, kind: reservation.kind, inputTokens: reservation.tokens, outputTokens: 0, costUsd: null, settled: false })
      .returning({ id: modelUsage.id });
    return { id: inserted.id };
  });
}

/**
 * Settles a reservation with what the call used (its conversation linked now that it exists, or
 * not if it was deleted meanwhile), or, when the call used nothing it was told of (it failed or
 * was stopped before the provider reported), removes it.
 */
export async function settleModelUsage(db: Db, id: number, record: Omit<UsageRecord, 'personId' | 'kind'> | null): Promise<void> {
  if (record === null) {
    await db.delete(modelUsage).where(eq(modelUsage.id, id));
    return;
  }
  const settled = { ...record, settled: true };
  try {
    await db.update(modelUsage).set(settled).where(eq(modelUsage.id, id));
  } catch (error) {
    if (!errorChain(error).some((e) => errorCode(e) === '23503')) throw error; // foreign_key_violation: the conversation is gone
    await db.update(modelUsage).set({ ...settled, conversationId: null }).where(eq(modelUsage.id, id));
  }
}

/** A guest signs in: its usage becomes the account's (lib/db/queries/merge-guest.server.ts, in its transaction). */
export async function moveUsage(tx: Tx, fromPersonId: string, toPersonId: string): Promise<void> {
  await tx.update(modelUsage).set({ personId: toPersonId }).where(eq(modelUsage.personId, fromPersonId));
}

const tokens = sql<number>`coalesce(sum(${modelUsage.inputTokens} + ${modelUsage.outputTokens}), 0)`.mapWith(Number);

/** Input and output tokens this person used after `since`. */
export async function tokensUsedSince(db: Db, personId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ tokens })
    .from(modelUsage)
    .where(and(eq(modelUsage.personId, personId), gt(modelUsage.createdAt, since)));
  return row?.tokens ?? 0;
}

/** This person's calls after `since`, oldest first: when each was made and its tokens. */
export async function usageTimeline(db: Db, personId: string, since: Date): Promise<Array<{ at: Date; tokens: number }>> {
  return db
    .select({ at: modelUsage.createdAt, tokens: sql<number>`${modelUsage.inputTokens} + ${modelUsage.outputTokens}`.mapWith(Number) })
    .from(modelUsage)
    .where(and(eq(modelUsage.personId, personId), gt(modelUsage.createdAt, since)))
    .orderBy(asc(modelUsage.createdAt), asc(modelUsage.id));
}

/** One person's use of one model over a period. A deleted person's rows have no person (null). */
export type UsageTotalsRow = {
  personId: string | null;
  email: string | null;
  modelId: string;
  /** Chat requests answered (title calls are counted in tokens, not here). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** USD of the calls whose model had a price. */
  costUsd: number;
  /** Tokens of calls whose model had no price: their cost is unknown. */
  unpricedTokens: number;
};

export async function usageTotalsSince(db: Db, since: Date): Promise<UsageTotalsRow[]> {
  return db
    .select({
      personId: modelUsage.personId,
      email: authUsers.email,
      modelId: modelUsage.modelId,
      requests: sql<number>`count(*) filter (where ${modelUsage.kind} = 'answer')`.mapWith(Number),
      inputTokens: sql<number>`coalesce(sum(${modelUsage.inputTokens}), 0)`.mapWith(Number),
      outputTokens: sql<number>`coalesce(sum(${modelUsage.outputTokens}), 0)`.mapWith(Number),
      costUsd: sql<number>`coalesce(sum(${modelUsage.costUsd}), 0)`.mapWith(Number),
      unpricedTokens: sql<number>`coalesce(sum(${modelUsage.inputTokens} + ${modelUsage.outputTokens}) filter (where ${modelUsage.costUsd} is null), 0)`.mapWith(Number),
    })
    .from(modelUsage)
    .leftJoin(authUsers, eq(authUsers.id, modelUsage.personId))
    // A call still running is counted when it ends, at what it used.
    .where(and(gt(modelUsage.createdAt, since), eq(modelUsage.settled, true)))
    .groupBy(modelUsage.personId, authUsers.email, modelUsage.modelId);
}
