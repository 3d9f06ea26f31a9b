import { z } from 'zod';
import { approveSignUp, changeRole, refuseSignUp } from '@/lib/auth/admin-accounts.server';
import { ROLES } from '@/lib/db/auth-tables.server';
import { getDb } from '@/lib/db/client.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const changeSchema = z.union([z.strictObject({ approved: z.literal(true) }), z.strictObject({ role: z.enum(ROLES) })]);

/** An admin approves a pending sign-up, or changes an account's role. */
export const PATCH = route<{ id: string }>(
  async ({ request, params, log }) => {
    const admin = await requireAdmin();
    const id = idOrNotFound(z.uuid(), params.id, 'account:not_found', 'account id');
    const change = await readJson(request, changeSchema);
    const db = await getDb();
    if ('approved' in change) await approveSignUp(db, { adminId: admin.userId, id });
    else await changeRole(db, { adminId: admin.userId, id, role: change.role });
    log.info({ admin: admin.userId, account: id, change }, 'admin changed an account');
    return Response.json({ updated: true });
  },
  { body: 'json' },
);

/** An admin refuses a pending sign-up: the account is deleted. */
export const DELETE = route<{ id: string }>(async ({ params, log }) => {
  const admin = await requireAdmin();
  const id = idOrNotFound(z.uuid(), params.id, 'account:not_found', 'account id');
  await refuseSignUp(await getDb(), { adminId: admin.userId, id });
  log.info({ admin: admin.userId, account: id }, 'admin refused a sign-up');
  return Response.json({ deleted: true });
});
