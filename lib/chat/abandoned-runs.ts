/**
 * No ghost runs: a tool call still waiting for its output when its conversation is opened was
 * being run by a page that is gone (reloaded, closed, crashed), since the browser runs code and
 * nothing else will ever answer it. It is stored as `page-closed` — shown so, with Run again,
 * and told to the model as it is — instead of sitting at "queued" forever.
 */
import 'server-only';
import type { Db } from '@/lib/db/client';
import { upsertMessage, type StoredMessage } from '@/lib/db/queries/messages';
import { failedRun } from '@/lib/runtime/run-failure';
import { isPendingRunPart, withRunResult } from '@/lib/targets/run-part';

/** The stored messages with the last message's pending runs closed (and stored) when there are any. */
export async function closeAbandonedRuns(db: Db, userId: string, conversationId: string, messages: StoredMessage[]): Promise<StoredMessage[]> {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant' || !last.parts.some(isPendingRunPart)) return messages;
  const closed = failedRun({ kind: 'page-closed' }, 0);
  const parts = last.parts.map((part) => (isPendingRunPart(part) ? withRunResult(part, closed) : part));
  const updated = { ...last, parts };
  await upsertMessage(db, userId, conversationId, updated);
  return [...messages.slice(0, -1), updated];
}
