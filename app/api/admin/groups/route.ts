import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { accountByEmail, createGroup, listGroups } from '@/lib/db/queries/projects.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const groupSchema = z.strictObject({ name: z.string().trim().min(1).max(200), emails: z.array(z.string().trim().min(3).max(320)).max(1000) });

export const GET = route(async () => {
  await requireAdmin();
  return Response.json({ groups: await listGroups(await getDb()) }, { headers: { 'cache-control': 'no-store' } });
});

/** An admin makes a group `{name, emails}` → 201 `{id}`; every email must be an account's. */
export const POST = route(
  async ({ request, log }) => {
    const admin = await requireAdmin();
    const { name, emails } = await readJson(request, groupSchema, 262_144);
    const db = await getDb();
    const userIds: string[] = [];
    const unknown: string[] = [];
    for (const email of emails) {
      const account = await accountByEmail(db, email);
      if (account) userIds.push(account.id);
      else unknown.push(email);
    }
    if (unknown.length > 0) throw new AppError('member:no_account', { message: `No account here has ${unknown.length === 1 ? 'this email' : 'these emails'}: ${unknown.join(', ')}. Each person makes one first (or is invited), then add them.`, reason: 'unknown emails' });
    const group = await createGroup(db, { name, createdBy: admin.userId, userIds });
    log.info({ admin: admin.userId, group: group.id, members: userIds.length }, 'admin made a group');
    return Response.json({ id: group.id }, { status: 201 });
  },
  { body: 'json' },
);
