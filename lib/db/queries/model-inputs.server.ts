import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { conversations, modelInputs } from '../schema.server';
import { modelInputContentSchema, modelSeesSchema, strictest, type ModelInput, type ModelInputContent, type ModelSees } from '@/lib/messages/model-input-schema';

/**
 * The conversation's own policy, read back through zod: an unknown stored value is taken as the
 * strictest (never as a licence to send more).
 */
export function storedModelSees(value: string | null): ModelSees | null {
  if (value === null) return null;
  const parsed = modelSeesSchema.safeParse(value);
  return parsed.success ? parsed.data : 'schema';
}

/**
 * What the model may see for this request: the strictest of the operator's policy, the
 * conversation's and the one the request asks for. A request stricter than the conversation makes
 * the conversation stricter (stored); a request can never make it less strict.
 */
export async function settleModelSees(db: Db, userId: string, conversationId: string, operator: ModelSees, stored: string | null, requested: ModelSees | undefined): Promise<ModelSees> {
  const current = storedModelSees(stored);
  const conversation = strictest(current, requested);
  if (requested && conversation !== (current ?? 'outputs')) {
    await db.update(conversations).set({ modelSees: conversation }).where(and(eq(conversations.id, conversationId), eq(conversations.ownerId, userId)));
  }
  return strictest(operator, conversation);
}

export async function recordModelInput(db: Db, values: { conversationId: string; answerId: string; modelSees: ModelSees; content: ModelInputContent; textBytes: number; imageBytes: number }): Promise<void> {
  await db.insert(modelInputs).values({ id: crypto.randomUUID(), ...values });
}

/** The recorded requests of one conversation (the caller has checked it is the user's), oldest first. */
export async function listModelInputs(db: Db, conversationId: string, answerId?: string): Promise<ModelInput[]> {
  const rows = await db
    .select()
    .from(modelInputs)
    .where(answerId === undefined ? eq(modelInputs.conversationId, conversationId) : and(eq(modelInputs.conversationId, conversationId), eq(modelInputs.answerId, answerId)))
    .orderBy(asc(modelInputs.createdAt));
  return rows.map((row) => ({
    id: row.id,
    answerId: row.answerId,
    modelSees: storedModelSees(row.modelSees) ?? 'schema',
    textBytes: row.textBytes,
    imageBytes: row.imageBytes,
    createdAt: row.createdAt.toISOString(),
    content: modelInputContentSchema.parse(row.content),
  }));
}

/** Bytes sent to the model provider in this conversation, per answer and in all. */
export async function modelInputTotals(db: Db, conversationId: string): Promise<{ requests: number; textBytes: number; imageBytes: number; byAnswer: Record<string, { requests: number; textBytes: number; imageBytes: number }> }> {
  const rows = await db
    .select({ answerId: modelInputs.answerId, requests: sql<number>`count(*)::int`, textBytes: sql<number>`coalesce(sum(${modelInputs.textBytes}), 0)::int`, imageBytes: sql<number>`coalesce(sum(${modelInputs.imageBytes}), 0)::int` })
    .from(modelInputs)
    .where(eq(modelInputs.conversationId, conversationId))
    .groupBy(modelInputs.answerId);
  const byAnswer: Record<string, { requests: number; textBytes: number; imageBytes: number }> = {};
  const total = { requests: 0, textBytes: 0, imageBytes: 0 };
  for (const row of rows) {
    byAnswer[row.answerId] = { requests: Number(row.requests), textBytes: Number(row.textBytes), imageBytes: Number(row.imageBytes) };
    total.requests += Number(row.requests);
    total.textBytes += Number(row.textBytes);
    total.imageBytes += Number(row.imageBytes);
  }
  return { ...total, byAnswer };
}
