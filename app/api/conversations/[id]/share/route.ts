import { getDb } from '@/lib/db/client';
import { createOrUpdateShare, revokeShare } from '@/lib/db/queries/shares';
import { notFound } from '@/lib/http/errors';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

type Context = { params: Promise<{ id: string }> };

/** Shares (or updates the shared snapshot of) the conversation as it is now. */
export async function POST(_request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  const shareId = await createOrUpdateShare(await getDb(), user.userId, id);
  return shareId ? Response.json({ id: shareId, path: `/s/${shareId}` }) : notFound();
}

/** Revokes the link: it 404s from then on. */
export async function DELETE(_request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  const revoked = await revokeShare(await getDb(), user.userId, id);
  return revoked ? new Response(null, { status: 204 }) : notFound();
}
