import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { revokeInvitation } from '@/lib/db/queries/invitations.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** An admin revokes an invitation not yet used: its link stops working. */
export const DELETE = route<{ id: string }>(async ({ params, log }) => {
  const admin = await requireAdmin();
  const id = idOrNotFound(z.uuid(), params.id, 'invitation:not_found', 'invitation id');
  if (!(await revokeInvitation(await getDb(), id))) throw new AppError('invitation:not_found', { reason: 'no open invitation' });
  log.info({ admin: admin.userId, invitation: id }, 'admin revoked an invitation');
  return Response.json({ revoked: true });
});
