import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { removeGroupMember } from '@/lib/db/queries/groups.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** An admin takes an account out of a group: what the group granted ends at its next request, on every instance. */
export const DELETE = route<{ id: string; userId: string }>(async ({ params, log }) => {
  const admin = await requireAdmin();
  const id = idOrNotFound(z.uuid(), params.id, 'group:not_found', 'group id');
  const userId = idOrNotFound(z.uuid(), params.userId, 'member:not_found', 'account id');
  if (!(await removeGroupMember(await getDb(), id, userId))) throw new AppError('member:not_found', { reason: 'not in this group' });
  log.info({ admin: admin.userId, group: id, account: userId }, 'admin took a member out of a group');
  return new Response(null, { status: 204 });
});
