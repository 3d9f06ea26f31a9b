import { z } from 'zod';
import { inviteSomeone } from '@/lib/auth/admin-accounts.server';
import { ROLES } from '@/lib/db/auth-tables.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { linkOrigin } from '@/lib/http/link-origin.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const inviteSchema = z.strictObject({ email: z.email({ error: 'an email address is needed' }).max(320), role: z.enum(ROLES) });

/** An admin invites someone: a single-use link for their email (mailed when a mail server is configured). */
export const POST = route(
  async ({ request, log }) => {
    const admin = await requireAdmin();
    const { email, role } = await readJson(request, inviteSchema);
    const origin = linkOrigin(request.headers, getConfig());
    const sent = await inviteSomeone(await getDb(), { adminId: admin.userId, origin, email, role });
    log.info({ admin: admin.userId, invitation: sent.invitation.id, role, emailed: sent.emailed }, 'admin invited someone');
    return Response.json(sent, { status: 201 });
  },
  { body: 'json' },
);
