import 'server-only';
import type { UIMessage } from 'ai';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { getConversation } from '@/lib/db/queries/conversations';
import { listMessages } from '@/lib/db/queries/messages';
import { listFiles, type ConversationFile } from '@/lib/db/queries/files';
import { closeAbandonedRuns } from './abandoned-runs';
import { markCutOffAnswer } from './answer-drafts';
import { toUIMessages } from './ui-messages';
import { liveStreamId } from '@/lib/streams/app-streams';

const idSchema = z.uuid();

/** A conversation the user owns, with its messages; null for anything else (the page 404s). */
export async function loadOwnConversation(userId: string, id: string): Promise<{ id: string; title: string | null; modelId: string | null; messages: UIMessage[]; files: ConversationFile[] } | null> {
  if (!idSchema.safeParse(id).success) return null;
  const db = await getDb();
  const conversation = await getConversation(db, userId, id);
  if (!conversation) return null;
  // With no answer being written right now, an answer still marked streaming was cut off by a
  // crash, and a run still waiting for its output was cut off with its page. When that cannot be
  // known (Redis down), nothing is marked: a live answer must not be called cut off.
  const live = (await liveStreamId(id)) !== null;
  let stored = await listMessages(db, id);
  if (!live) stored = await closeAbandonedRuns(db, userId, id, await markCutOffAnswer(db, userId, id, stored, live));
  return { id, title: conversation.title, modelId: conversation.modelId, messages: await toUIMessages(stored), files: await listFiles(db, id) };
}
