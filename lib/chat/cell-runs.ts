/**
 * A cell the user ran again or edited: its stored tool call gets the code that ran and the new
 * result, so reloads, share links and the model's next turn all see what the interpreter did.
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client';
import { putConversationBlob } from '@/lib/db/queries/blobs';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages';
import { runResultSchema } from '@/lib/runtime/protocol';
import { externalizeImages } from './externalize-images';

export const cellRunSchema = z.object({
  code: z.string().max(200_000),
  result: runResultSchema.extend({ userRun: z.enum(['rerun', 'edited']) }),
});
export type CellRun = z.infer<typeof cellRunSchema>;

const pythonPartSchema = z.looseObject({ type: z.literal('tool-python'), toolCallId: z.string(), state: z.literal('output-available') });

export async function saveCellRun(db: Db, userId: string, conversationId: string, toolCallId: string, run: CellRun): Promise<boolean> {
  const stored = await listMessages(db, conversationId);
  for (const message of stored) {
    if (message.role !== 'assistant') continue;
    const index = message.parts.findIndex((part) => {
      const parsed = pythonPartSchema.safeParse(part);
      return parsed.success && parsed.data.toolCallId === toolCallId;
    });
    if (index === -1) continue;
    const [updated] = await externalizeImages([{ type: 'tool-python', output: run.result }], (bytes, mediaType) =>
      putConversationBlob(db, conversationId, { bytes, mediaType }),
    );
    const parts = message.parts.map((part, i) =>
      i === index ? { ...(part as object), input: { code: run.code }, output: (updated as { output: unknown }).output } : part,
    );
    return upsertMessage(db, userId, conversationId, { ...message, parts });
  }
  return false;
}
