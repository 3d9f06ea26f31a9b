import { getDb } from '@/lib/db/client';
import { forkShare } from '@/lib/db/queries/shares';
import { notFound } from '@/lib/http/errors';
import { requireUser, shareIdSchema } from '@/lib/http/session';

export const runtime = 'nodejs';

/** "Continue in my own chat": a copy of the shared snapshot owned by the visitor. */
export async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!shareIdSchema.safeParse(id).success) return notFound();
  const conversationId = await forkShare(await getDb(), user.userId, id);
  return conversationId ? Response.json({ id: conversationId, path: `/c/${conversationId}` }) : notFound();
}
