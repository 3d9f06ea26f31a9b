import { authorize } from '@/lib/access/authorize.server';
import { getDb } from '@/lib/db/client.server';
import { forkShare } from '@/lib/db/queries/shares.server';
import { AppError } from '@/lib/errors.server';
import { storageQuota } from '@/lib/files/storage-quota.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireUser, shareIdSchema } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** "Continue in my own chat": a copy of the shared snapshot owned by the visitor. A full quota is refused by route() (quota:exceeded). */
export const POST = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  const shareId = idOrNotFound(shareIdSchema, params.id, 'share:not_found', 'share id');
  await authorize(await getDb(), user, 'read', { share: shareId });
  const conversationId = await forkShare(await getDb(), user.userId, shareId, storageQuota());
  if (!conversationId) throw new AppError('share:not_found', { reason: 'share not active' });
  return Response.json({ id: conversationId, path: `/c/${conversationId}` });
});
