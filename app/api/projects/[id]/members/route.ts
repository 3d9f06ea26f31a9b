import { authorize } from '@/lib/access/authorize.server';
import { granteeWith, resolveGrantee } from '@/lib/access/grantee.server';
import { addMember, memberRoleSchema } from '@/lib/access/projects.server';
import { getDb } from '@/lib/db/client.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const memberSchema = granteeWith({ role: memberRoleSchema });

/** Adds `{email | groupId, role: "use" | "edit"}` to the project (or changes their role) → 201 `{id}`. */
export const POST = route<{ id: string }>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'project:not_found', 'project id');
    const db = await getDb();
    await authorize(db, user, 'manage_members', { project: id });
    const { role, ...named } = await readJson(request, memberSchema, 16_384);
    const memberId = await addMember(db, user.userId, id, await resolveGrantee(db, named), role);
    return Response.json({ id: memberId }, { status: 201 });
  },
  { body: 'json' },
);
