import 'server-only';
import type { UIMessage } from 'ai';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { getConversation, getConversationById } from '@/lib/db/queries/conversations.server';
import { may, type Subject } from '@/lib/access/authorize.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { listFiles, type ConversationFile } from '@/lib/files/file-queries.server';
import { closeAbandonedRuns } from './abandoned-runs.server';
import { markCutOffAnswer } from './answer-drafts.server';
import { toUIMessages } from './ui-messages.server';
import { liveStreamId } from '@/lib/streams/app-streams.server';
import { sharedProjectDatasets } from './project-datasets.server';

const idSchema = z.uuid();

/** A conversation the user owns, with its messages; null for anything else (the page 404s). */
export async function loadOwnConversation(userId: string, id: string): Promise<{ id: string; title: string | null; modelId: string | null; projectId: string | null; messages: UIMessage[]; files: ConversationFile[] } | null> {
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
  return { id, title: conversation.title, modelId: conversation.modelId, projectId: conversation.projectId, messages: await toUIMessages(stored), files: await listFiles(db, id) };
}

/**
 * Someone else's conversation shared to `who` to read (the one rule: lib/access/authorize.server.ts),
 * as stored, with the files uploaded to it (a file kept on its author's device is not theirs to
 * see: neither its bytes nor its hash) and the uploaded datasets of its project it had under /data
 * (read through it: `/api/blobs/<sha>?conversation=<id>`); null for anything else (the page 404s).
 */
export async function loadReadableConversation(who: Subject, id: string): Promise<{ id: string; title: string | null; updatedAt: Date; messages: UIMessage[]; files: ConversationFile[] } | null> {
  if (!idSchema.safeParse(id).success) return null;
  const db = await getDb();
  if (!(await may(db, who, 'read', { conversation: id }))) return null;
  const conversation = await getConversationById(db, id);
  if (!conversation) return null;
  const own = (await listFiles(db, id)).filter((file) => file.location === 'account');
  const project = (await sharedProjectDatasets(db, who, id)).map(({ name, sha256, mediaType, size }): ConversationFile => ({ name, sha256, mediaType, size, location: 'account', salts: [] }));
  const files = [...own, ...project.filter((file) => !own.some((other) => other.name === file.name))];
  return { id, title: conversation.title, updatedAt: conversation.updatedAt, messages: await toUIMessages(await listMessages(db, id)), files };
}
