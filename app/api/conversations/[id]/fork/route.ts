import { authorize } from '@/lib/access/authorize.server';
import { sharedProjectDatasets } from '@/lib/chat/project-datasets.server';
import { getDb } from '@/lib/db/client.server';
import { copyConversation } from '@/lib/db/queries/shares.server';
import { AppError } from '@/lib/errors.server';
import { storageQuota } from '@/lib/files/storage-quota.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/**
 * "Continue in my own chat" for a conversation shared with the asker to read (or their own) →
 * 201 `{id, path}`: a copy of theirs, with its files and the datasets of its project they may read
 * (lib/db/queries/shares.server.ts, `copyConversation`). Anyone who may not read it: the same 404
 * as an id that names nothing. A full quota is refused by route() (quota:exceeded).
 */
export const POST = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  await authorize(db, user, 'read', { conversation: id });
  const datasets = await sharedProjectDatasets(db, user, id);
  const copy = await copyConversation(db, user.userId, id, datasets, storageQuota());
  if (!copy) throw new AppError('conversation:not_found', { reason: 'conversation gone' });
  return Response.json({ id: copy, path: `/c/${copy}` }, { status: 201 });
});
