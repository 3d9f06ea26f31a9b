import { getDb } from '@/lib/db/client';
import { QuotaExceededError } from '@/lib/db/queries/quota';
import { forkShare } from '@/lib/db/queries/shares';
import { quotaMessage, storageQuota } from '@/lib/files/storage-quota';
import { jsonError, notFound } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { requireUser, shareIdSchema } from '@/lib/http/session';

export const runtime = 'nodejs';

/** "Continue in my own chat": a copy of the shared snapshot owned by the visitor. */
export const POST = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!shareIdSchema.safeParse(params.id).success) return notFound('malformed share id');
  try {
    const conversationId = await forkShare(await getDb(), user.userId, params.id, storageQuota());
    return conversationId ? Response.json({ id: conversationId, path: `/c/${conversationId}` }) : notFound('share not active');
  } catch (error) {
    if (error instanceof QuotaExceededError) return jsonError(413, quotaMessage(error), { reason: 'storage quota' });
    throw error;
  }
});
