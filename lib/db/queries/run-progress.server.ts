import 'server-only';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { runProgress } from '../schema.server';
import { getConversation } from './conversations.server';

export type RunProgressRow = { toolCallId: string; startedAt: Date; durationMs: number; outputs: unknown };

/** A progress row older than this belongs to no run still going (a live run saves every few seconds). */
const STALE_AFTER = sql`interval '10 minutes'`;

/**
 * Saves what a run has done so far (its outputs only when given: a save that only moves the
 * duration on leaves them). Authorizes first; a conversation's stale rows go with each save, so
 * rows stay few whatever a page sends.
 */
export async function saveRunProgress(
  db: Db,
  userId: string,
  conversationId: string,
  toolCallId: string,
  progress: { startedAt: Date; durationMs: number; outputs?: unknown[] },
): Promise<boolean> {
  if (!(await getConversation(db, userId, conversationId))) return false;
  await db
    .delete(runProgress)
    .where(and(eq(runProgress.conversationId, conversationId), ne(runProgress.toolCallId, toolCallId), lt(runProgress.updatedAt, sql`now() - ${STALE_AFTER}`)));
  const changes = { startedAt: progress.startedAt, durationMs: Math.round(progress.durationMs), updatedAt: sql`now()`, ...(progress.outputs ? { outputs: progress.outputs } : {}) };
  await db
    .insert(runProgress)
    .values({ conversationId, toolCallId, startedAt: progress.startedAt, durationMs: Math.round(progress.durationMs), outputs: progress.outputs ?? [] })
    .onConflictDoUpdate({ target: [runProgress.conversationId, runProgress.toolCallId], set: changes });
  return true;
}

/** The conversation's saved progress, by tool call id. */
export async function listRunProgress(db: Db, conversationId: string): Promise<Map<string, RunProgressRow>> {
  const rows = await db
    .select({ toolCallId: runProgress.toolCallId, startedAt: runProgress.startedAt, durationMs: runProgress.durationMs, outputs: runProgress.outputs })
    .from(runProgress)
    .where(eq(runProgress.conversationId, conversationId));
  return new Map(rows.map((row) => [row.toolCallId, row]));
}

/** Removes the conversation's progress rows (their runs are closed). */
export async function deleteRunProgress(db: Db, conversationId: string): Promise<void> {
  await db.delete(runProgress).where(eq(runProgress.conversationId, conversationId));
}

/** Removes one run's progress row (its outcome is stored). */
export async function deleteRunProgressOf(db: Db, conversationId: string, toolCallId: string): Promise<void> {
  await db.delete(runProgress).where(and(eq(runProgress.conversationId, conversationId), eq(runProgress.toolCallId, toolCallId)));
}
