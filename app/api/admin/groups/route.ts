import { z } from 'zod';
import { accountsByEmails, groupEmailsSchema, groupNameSchema } from '@/lib/access/groups.server';
import { getDb } from '@/lib/db/client.server';
import { listGroupsWithMembers } from '@/lib/db/queries/groups.server';
import { createGroup } from '@/lib/db/queries/projects.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const groupSchema = z.strictObject({ name: groupNameSchema, emails: groupEmailsSchema });

/** Every group with its members (`{groups: [{id, name, members: [{userId, email, source}]}]}`), to admins. */
export const GET = route(async () => {
  await requireAdmin();
  return Response.json({ groups: await listGroupsWithMembers(await getDb()) }, { headers: { 'cache-control': 'no-store' } });
});

/** An admin makes a group `{name, emails}` → 201 `{id}`; every email must be an account's. */
export const POST = route(
  async ({ request, log }) => {
    const admin = await requireAdmin();
    const { name, emails } = await readJson(request, groupSchema, 262_144);
    const db = await getDb();
    const userIds = await accountsByEmails(db, emails);
    const group = await createGroup(db, { name, createdBy: admin.userId, userIds });
    log.info({ admin: admin.userId, group: group.id, members: userIds.length }, 'admin made a group');
    return Response.json({ id: group.id }, { status: 201 });
  },
  { body: 'json' },
);
