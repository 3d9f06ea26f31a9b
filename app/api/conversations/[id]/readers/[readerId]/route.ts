import { authorize } from '@/lib/access/authorize.server';
import { removeReader } from '@/lib/access/projects.server';
import { getDb } from '@/lib/db/client.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** Stops sharing the conversation with this reader: their access ends with this answer. */
export const DELETE = route<{ id: string; readerId: string }>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  await authorize(db, user, 'manage_members', { conversation: id });
  await removeReader(db, user.userId, id, idOrNotFound(conversationIdSchema, params.readerId, 'member:not_found', 'reader id'));
  return new Response(null, { status: 204 });
});
