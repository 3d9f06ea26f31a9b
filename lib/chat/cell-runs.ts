/**
 * A cell the user ran again or edited: its stored tool call gets the code that ran and the new
 * result, so reloads, share links and the model's next turn all see what the interpreter did.
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client';
import { getConversation } from '@/lib/db/queries/conversations';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages';
import { runResultSchema } from '@/lib/runtime/protocol';
import { externalizeMessageImages } from './externalize-images';

export const cellRunSchema = z.object({
  code: z.string().max(200_000),
  result: runResultSchema.extend({ userRun: z.enum(['rerun', 'edited']) }),
});
export type CellRun = z.infer<typeof cellRunSchema>;

const toolPartSchema = z.looseObject({ type: z.string().startsWith('tool-'), toolCallId: z.string(), state: z.literal('output-available') });

/** Authorizes first: nothing is stored (not even an image) for a conversation the user does not own. */
export async function saveCellRun(db: Db, userId: string, conversationId: string, toolCallId: string, run: CellRun): Promise<boolean> {
  if (!(await getConversation(db, userId, conversationId))) return false;
  const stored = await listMessages(db, conversationId);
  for (const message of stored) {
    if (message.role !== 'assistant') continue;
    const index = message.parts.findIndex((part) => {
      const parsed = toolPartSchema.safeParse(part);
      return parsed.success && parsed.data.toolCallId === toolCallId;
    });
    if (index === -1) continue;
    const type = (message.parts[index] as { type: string }).type;
    const [updated] = await externalizeMessageImages([{ id: message.id, role: message.role, parts: [{ type, output: run.result }] }], userId, conversationId, db);
    const output = (updated.parts[0] as { output: unknown }).output;
    const parts = message.parts.map((part, i) => (i === index ? { ...(part as object), input: { code: run.code }, output } : part));
    return upsertMessage(db, userId, conversationId, { ...message, parts });
  }
  return false;
}
