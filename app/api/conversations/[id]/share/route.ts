import { getDb } from '@/lib/db/client';
import { createOrUpdateShare, revokeShare } from '@/lib/db/queries/shares';
import { notFound } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

type Params = { id: string };

/** Shares (or updates the shared snapshot of) the conversation as it is now. */
export const POST = route<Params>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
  const shareId = await createOrUpdateShare(await getDb(), user.userId, params.id);
  return shareId ? Response.json({ id: shareId, path: `/s/${shareId}` }) : notFound('conversation not owned');
});

/** Revokes the link: it 404s from then on. */
export const DELETE = route<Params>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
  const revoked = await revokeShare(await getDb(), user.userId, params.id);
  return revoked ? new Response(null, { status: 204 }) : notFound('no active share of an owned conversation');
});
