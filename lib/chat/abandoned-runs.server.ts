/**
 * No ghost runs: a tool call still waiting for its output when its conversation is opened was
 * being run by a page that is gone (reloaded, closed, crashed), since the browser runs code and
 * nothing else will ever answer it. It is stored as `page-closed` — shown so, with Run again,
 * and told to the model as it is — instead of sitting at "queued" forever. What the run had
 * printed and displayed and how long it had run come from the progress its page saved while it
 * ran (lib/chat/run-progress.server.ts); images among them are stored as the conversation's blobs.
 */
import 'server-only';
import type { Db } from '@/lib/db/client.server';
import { upsertMessage, type StoredMessage } from '@/lib/db/queries/messages.server';
import { deleteRunProgress, listRunProgress } from '@/lib/db/queries/run-progress.server';
import { failedRun } from '@/lib/runtime/failed-run';
import { isPendingRunPart, withRunResult } from '@/lib/targets/run-part';
import { externalizeMessageImages } from './externalize-images.server';
import { progressResult } from './run-progress.server';

/** The stored messages with the last message's pending runs closed (and stored) when there are any. */
export async function closeAbandonedRuns(db: Db, userId: string, conversationId: string, messages: StoredMessage[]): Promise<StoredMessage[]> {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant' || !last.parts.some(isPendingRunPart)) return messages;
  const progress = await listRunProgress(db, conversationId);
  const parts = last.parts.map((part) => {
    if (!isPendingRunPart(part)) return part;
    const { outputs, durationMs } = progressResult(progress.get(part.toolCallId));
    return withRunResult(part, failedRun({ kind: 'page-closed' }, durationMs, outputs));
  });
  const [updated] = hasImage(parts) ? await externalizeMessageImages([{ ...last, parts }], userId, conversationId, db) : [{ ...last, parts }];
  await upsertMessage(db, userId, conversationId, updated);
  if (progress.size > 0) await deleteRunProgress(db, conversationId);
  return [...messages.slice(0, -1), updated];
}

function hasImage(parts: unknown[]): boolean {
  return parts.some((part) => {
    const outputs = (part as { output?: { outputs?: unknown } }).output?.outputs;
    return Array.isArray(outputs) && outputs.some((output) => {
      const data = (output as { data?: Record<string, unknown> }).data;
      return data !== undefined && (typeof data['image/png'] === 'string' || typeof data['image/jpeg'] === 'string');
    });
  });
}
