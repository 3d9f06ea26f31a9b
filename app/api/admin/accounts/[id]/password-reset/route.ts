import { z } from 'zod';
import { passwordResetLink } from '@/lib/auth/admin-accounts.server';
import { getAuth } from '@/lib/auth/auth.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { linkOrigin } from '@/lib/http/link-origin.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** An admin has a one-time link that sets this person's password mailed to them (lib/auth/admin-accounts.server.ts: shown only without a mail server, never for an admin). */
export const POST = route<{ id: string }>(async ({ request, params, log }) => {
  const admin = await requireAdmin();
  const id = idOrNotFound(z.uuid(), params.id, 'account:not_found', 'account id');
  const origin = linkOrigin(request.headers, getConfig());
  const sent = await passwordResetLink(await getDb(), await getAuth(origin), { adminId: admin.userId, origin, id });
  log.info({ admin: admin.userId, account: id, emailed: sent.emailed }, 'admin made a password-reset link');
  return Response.json(sent, { status: 201 });
});
