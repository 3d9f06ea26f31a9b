import { authorize } from '@/lib/access/authorize.server';
import { removeMember } from '@/lib/access/projects.server';
import { getDb } from '@/lib/db/client.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** Removes a member: their access ends with this answer. */
export const DELETE = route<{ id: string; memberId: string }>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'project:not_found', 'project id');
  const db = await getDb();
  await authorize(db, user, 'manage_members', { project: id });
  await removeMember(db, user.userId, id, idOrNotFound(conversationIdSchema, params.memberId, 'member:not_found', 'member id'));
  return new Response(null, { status: 204 });
});
