import { datasetFactsSchema, storedFacts } from '@/lib/chat/project-datasets.server';
import { deleteBlobIfUnreferenced } from '@/lib/db/queries/blobs.server';
import { AppError } from '@/lib/errors.server';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getProjectFile, removeProjectFile, setProjectFileColumns } from '@/lib/files/project-files.server';
import { projectRequest } from '@/lib/http/project-request.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';
import { authorize, may } from '@/lib/access/authorize.server';
import { getDb } from '@/lib/db/client.server';

export const runtime = 'nodejs';

type Params = { id: string; fileId: string };

/** The project's file named, for `action`: a project the person may not read, or a malformed id, is the same 404 as a file that does not exist. */
async function fileRequest(params: Params, action: 'change_instructions') {
  const asked = await projectRequest(params.id, action, 'file:not_found');
  return { ...asked, fileId: idOrNotFound(conversationIdSchema, params.fileId, 'file:not_found', 'file id') };
}

/**
 * An uploaded dataset's bytes, to whoever may read this dataset (`read_dataset` on it: the
 * project's members, and the readers of a conversation that uses it): a redirect to the blob route
 * (Range, ETag and the media type's serving rules are its own), with the project named for a member
 * and the dataset for anyone else. A dataset kept on a member's device has no bytes here: 404 as
 * any other, and so is one that may not be read or is another project's.
 */
export const GET = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'file:not_found', 'project id');
  const fileId = idOrNotFound(conversationIdSchema, params.fileId, 'file:not_found', 'file id');
  const db = await getDb();
  await authorize(db, user, 'read_dataset', { dataset: fileId });
  const file = await getProjectFile(db, id, fileId);
  if (!file || file.location !== 'account') throw new AppError('file:not_found', { reason: file ? 'kept on a device' : 'no such file' });
  const through = (await may(db, user, 'read_dataset', { project: id })) ? `project=${id}` : `dataset=${fileId}`;
  return new Response(null, { status: 303, headers: { location: `/api/blobs/${file.sha256}?${through}`, 'cache-control': 'no-store' } });
});

/** What the adding browser's reader found of its columns `{columns, header?, rows?}` (its owner and those who can edit). */
export const PATCH = route<Params>(
  async ({ request, params }) => {
    const { id, db, fileId } = await fileRequest(params, 'change_instructions');
    const facts = await readJson(request, datasetFactsSchema, 262_144);
    if (!(await setProjectFileColumns(db, id, fileId, storedFacts(facts)))) throw new AppError('file:not_found', { reason: 'no such file' });
    return Response.json(await getProjectFile(db, id, fileId));
  },
  { body: 'json' },
);

/** Removes a dataset from the project (its owner and those who can edit); its bytes go when nothing else holds them. */
export const DELETE = route<Params>(async ({ params }) => {
  const { id, db, fileId } = await fileRequest(params, 'change_instructions');
  const removed = await removeProjectFile(db, id, fileId);
  if (removed === undefined) throw new AppError('file:not_found', { reason: 'no such file' });
  if (removed !== null) await deleteBlobIfUnreferenced(db, await getBlobStore(), removed);
  return new Response(null, { status: 204 });
});
