/**
 * A cell the user ran again or edited: its stored tool call gets the code that ran and the new
 * result, so reloads, share links and the model's next turn all see what the interpreter did.
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages.server';
import { runResultSchema } from '@/lib/runtime/protocol';
import { readRunPart, userRunSchema, withUserRun } from '@/lib/targets/run-part';
import { externalizeMessageImages } from './externalize-images.server';

export const cellRunSchema = z.object({
  code: z.string().max(200_000),
  result: runResultSchema.extend({ userRun: userRunSchema }),
});
export type CellRun = z.infer<typeof cellRunSchema>;

/** Authorizes first: nothing is stored (not even an image) for a conversation the user does not own. */
export async function saveCellRun(db: Db, userId: string, conversationId: string, toolCallId: string, run: CellRun): Promise<boolean> {
  if (!(await getConversation(db, userId, conversationId))) return false;
  const stored = await listMessages(db, conversationId);
  for (const message of stored) {
    if (message.role !== 'assistant') continue;
    // Only a run that finished is the user's to run again.
    const index = message.parts.findIndex((part) => {
      const read = readRunPart(part);
      return read?.part.toolCallId === toolCallId && read.part.state === 'output-available';
    });
    if (index === -1) continue;
    const { type } = (readRunPart(message.parts[index]) as NonNullable<ReturnType<typeof readRunPart>>).part;
    const [updated] = await externalizeMessageImages([{ id: message.id, role: message.role, parts: [{ type, toolCallId, state: 'output-available', output: run.result }] }], userId, conversationId, db);
    const output = (updated.parts[0] as { output: unknown }).output;
    const parts = message.parts.map((part, i) => (i === index ? withUserRun(part as object, run.code, output) : part));
    return upsertMessage(db, userId, conversationId, { ...message, parts });
  }
  return false;
}
