import { authorize } from '@/lib/access/authorize.server';
import { granteeWith } from '@/lib/access/grantee.server';
import { addMemberOrInvite } from '@/lib/access/project-invitations.server';
import { memberRoleSchema } from '@/lib/access/projects.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { linkOrigin } from '@/lib/http/link-origin.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const memberSchema = granteeWith({ role: memberRoleSchema });

/**
 * Adds `{email | groupId, role: "use" | "edit"}` to the project (or changes their role) → 201 `{id}`;
 * an email no account has yet is invited → 201 `{id, status: "invited", email, role, emailSent, link?, message}`
 * (lib/access/project-invitations.server.ts).
 */
export const POST = route<{ id: string }>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'project:not_found', 'project id');
    const db = await getDb();
    await authorize(db, user, 'manage_members', { project: id });
    const { role, ...named } = await readJson(request, memberSchema, 16_384);
    const added = await addMemberOrInvite(db, user, { projectId: id, named, role, origin: () => linkOrigin(request.headers, getConfig()) });
    return Response.json(added, { status: 201 });
  },
  { body: 'json' },
);
