import { z } from 'zod';
import { revokeInvitationOf } from '@/lib/auth/admin-accounts.server';
import { getDb } from '@/lib/db/client.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** An admin revokes an invitation not yet used: its link stops working. */
export const DELETE = route<{ id: string }>(async ({ params, log }) => {
  const admin = await requireAdmin();
  const id = idOrNotFound(z.uuid(), params.id, 'invitation:not_found', 'invitation id');
  await revokeInvitationOf(await getDb(), { adminId: admin.userId, id });
  log.info({ admin: admin.userId, invitation: id }, 'admin revoked an invitation');
  return Response.json({ revoked: true });
});
