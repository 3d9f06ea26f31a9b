import { authorize } from '@/lib/access/authorize.server';
import { getDb } from '@/lib/db/client.server';
import { createOrUpdateShare, revokeShare } from '@/lib/db/queries/shares.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };

/** Shares (or updates the shared snapshot of) the conversation as it is now. */
export const POST = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  await authorize(await getDb(), user, 'manage_members', { conversation: id });
  const shareId = await createOrUpdateShare(await getDb(), user.userId, id);
  if (!shareId) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  return Response.json({ id: shareId, path: `/s/${shareId}` });
});

/** Revokes the link: it 404s from then on. */
export const DELETE = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  await authorize(await getDb(), user, 'manage_members', { conversation: id });
  if (!(await revokeShare(await getDb(), user.userId, id))) throw new AppError('share:not_found', { reason: 'no active share of an owned conversation' });
  return new Response(null, { status: 204 });
});
