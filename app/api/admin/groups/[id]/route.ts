import { z } from 'zod';
import { accountsByEmails, groupEmailsSchema, groupNameSchema } from '@/lib/access/groups.server';
import { getDb } from '@/lib/db/client.server';
import { addGroupMembers, deleteGroup, renameGroup } from '@/lib/db/queries/groups.server';
import { getGroup } from '@/lib/db/queries/projects.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { idOrNotFound, requireAdmin } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };
const changeSchema = z.strictObject({ name: groupNameSchema.optional(), emails: groupEmailsSchema.optional() });
const groupId = (params: Params) => idOrNotFound(z.uuid(), params.id, 'group:not_found', 'group id');

/**
 * An admin renames a group or adds members: `{name?, emails?}` (each email an account's, or nothing
 * changes) → 200 `{id, name}`. Members are taken out one by one (…/members/<userId>).
 */
export const PATCH = route<Params>(
  async ({ request, params, log }) => {
    const admin = await requireAdmin();
    const id = groupId(params);
    const change = await readJson(request, changeSchema, 262_144);
    const db = await getDb();
    if (!(await getGroup(db, id))) throw new AppError('group:not_found', { reason: 'unknown group' });
    const userIds = change.emails ? await accountsByEmails(db, change.emails) : [];
    if (change.name !== undefined) await renameGroup(db, id, change.name);
    await addGroupMembers(db, id, userIds);
    log.info({ admin: admin.userId, group: id, renamed: change.name !== undefined, added: userIds.length }, 'admin changed a group');
    return Response.json(await getGroup(db, id));
  },
  { body: 'json' },
);

/** An admin deletes a group: every project membership and reading it granted ends with it. */
export const DELETE = route<Params>(async ({ params, log }) => {
  const admin = await requireAdmin();
  const id = groupId(params);
  if (!(await deleteGroup(await getDb(), id))) throw new AppError('group:not_found', { reason: 'unknown group' });
  log.info({ admin: admin.userId, group: id }, 'admin deleted a group');
  return new Response(null, { status: 204 });
});
