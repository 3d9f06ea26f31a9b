/**
 * The page's writes of a cell's run, one writer for both: a cell the user ran again or edited
 * (its stored tool call gets the code that ran and the new result), and a model's run the person
 * stopped (Esc or Stop) while the turn waited for it, whose outcome no next turn will carry to the
 * server. Either way reloads, share links, exports and the model's next turn see what the
 * interpreter did: a stopped run stays "interrupted … Variables were kept" with every line it
 * printed, not "cut off by a reload" (lib/chat/abandoned-runs.server.ts).
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages.server';
import { deleteRunProgressOf } from '@/lib/db/queries/run-progress.server';
import { runResultSchema } from '@/lib/runtime/protocol';
import { isPendingRunPart, readRunPart, userRunSchema, withRunResult, withUserRun } from '@/lib/targets/run-part';
import { externalizeMessageImages } from './externalize-images.server';

export const cellRunSchema = z.object({
  code: z.string().max(200_000),
  /** With `userRun`: the user's run of a finished cell. Without: the page's run of a call still waiting (its code must be the call's). */
  result: runResultSchema.extend({ userRun: userRunSchema.optional() }),
});
export type CellRun = z.infer<typeof cellRunSchema>;

/** Authorizes first: nothing is stored (not even an image) for a conversation the user does not own. */
export async function saveCellRun(db: Db, userId: string, conversationId: string, toolCallId: string, run: CellRun): Promise<boolean> {
  if (!(await getConversation(db, userId, conversationId))) return false;
  const stored = await listMessages(db, conversationId);
  for (const message of stored) {
    if (message.role !== 'assistant') continue;
    const index = message.parts.findIndex((part) => readRunPart(part)?.part.toolCallId === toolCallId);
    if (index === -1) continue;
    const read = readRunPart(message.parts[index]) as NonNullable<ReturnType<typeof readRunPart>>;
    // Only a run that finished is the user's to run again; only a waiting call takes the page's run of its own code.
    const userRun = run.result.userRun !== undefined;
    // A waiting call closed as cut off by a reload (lib/chat/abandoned-runs.server.ts) before its page's own end arrived takes that end too.
    const closedByReload = read.recorded?.status === 'page-closed' && read.recorded.userRun === undefined;
    const fits = userRun ? read.part.state === 'output-available' : (isPendingRunPart(read.part) || closedByReload) && read.code === run.code;
    if (!fits) return false;
    const { type } = read.part;
    const [updated] = await externalizeMessageImages([{ id: message.id, role: message.role, parts: [{ type, toolCallId, state: 'output-available', output: run.result }] }], userId, conversationId, db);
    const output = (updated.parts[0] as { output: CellRun['result'] }).output;
    const part = message.parts[index] as object;
    const parts = message.parts.map((each, i) => (i !== index ? each : userRun ? withUserRun(part, run.code, output) : withRunResult(part, output)));
    const saved = await upsertMessage(db, userId, conversationId, { ...message, parts });
    // Its progress is no longer needed to close it (lib/chat/abandoned-runs.server.ts).
    if (saved && !userRun) await deleteRunProgressOf(db, conversationId, toolCallId);
    return saved;
  }
  return false;
}
