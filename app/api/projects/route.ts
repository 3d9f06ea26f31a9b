import { getDb } from '@/lib/db/client.server';
import { listProjectsOf } from '@/lib/db/queries/projects.server';
import { makeProject, newProjectSchema } from '@/lib/access/projects.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { requireAccount, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** The projects the person owns or is a member of (directly or through a group). */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json({ projects: await listProjectsOf(await getDb(), user.userId) }, { headers: { 'cache-control': 'no-store' } });
});

/** A new project of the person's: `{name, instructions?, model?, modelSees?}` → 201 `{id}`. Projects are shared by email: an account is needed. */
export const POST = route(
  async ({ request }) => {
    const user = await requireAccount();
    const input = await readJson(request, newProjectSchema, 65_536);
    const project = await makeProject(await getDb(), user.userId, input);
    return Response.json({ id: project.id }, { status: 201 });
  },
  { body: 'json' },
);
