import { authorize } from '@/lib/access/authorize.server';
import { changeProject, projectChangeSchema, projectView } from '@/lib/access/projects.server';
import { getDb } from '@/lib/db/client.server';
import { deleteProject } from '@/lib/db/queries/projects.server';
import { deleteBlobIfUnreferenced } from '@/lib/db/queries/blobs.server';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { releaseProjectFiles } from '@/lib/files/project-files.server';
import { readJson } from '@/lib/http/read-json.server';
import { projectRequest } from '@/lib/http/project-request.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };
const projectId = (params: Params) => idOrNotFound(conversationIdSchema, params.id, 'project:not_found', 'project id');

/** The project as its member sees it: settings, members and their own conversations in it. */
export const GET = route<Params>(async ({ params }) => {
  const { user, id, db } = await projectRequest(params.id, 'read');
  return Response.json(await projectView(db, user, id), { headers: { 'cache-control': 'no-store' } });
});

/** Its name, instructions, model or model-sees policy: owner and those who can edit. */
export const PATCH = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = projectId(params);
    const db = await getDb();
    await authorize(db, user, 'read', { project: id });
    const input = await readJson(request, projectChangeSchema, 65_536);
    await authorize(db, user, 'change_instructions', { project: id });
    await changeProject(db, id, input);
    return Response.json(await projectView(db, user, id));
  },
  { body: 'json' },
);

/** The owner deletes it with its datasets; its conversations stay their authors', outside any project. */
export const DELETE = route<Params>(async ({ params }) => {
  const { id, db } = await projectRequest(params.id, 'delete');
  // Its uploaded datasets stop counting against their uploaders; bytes nothing else holds go.
  const released = await releaseProjectFiles(db, id);
  await deleteProject(db, id);
  const store = await getBlobStore();
  for (const sha256 of released) await deleteBlobIfUnreferenced(db, store, sha256);
  return new Response(null, { status: 204 });
});
