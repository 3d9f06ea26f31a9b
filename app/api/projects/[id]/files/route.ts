import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { listProjectFiles } from '@/lib/files/project-files.server';
import { storeProjectUpload, uploadRequest } from '@/lib/files/store-upload.server';
import { projectRequest } from '@/lib/http/project-request.server';
import { route } from '@/lib/http/route.server';
import { recordUpload } from '@/lib/metrics/registry.server';

export const runtime = 'nodejs';

/** The project's datasets (uploaded, and kept on members' devices: name, size, columns, SHA-256), to its members. */
export const GET = route<{ id: string }>(async ({ params }) => {
  const { id, db } = await projectRequest(params.id, 'read');
  return Response.json({ files: await listProjectFiles(db, id) }, { headers: { 'cache-control': 'no-store' } });
});

/**
 * Uploads one dataset to the project (its owner and those who can edit): the raw bytes as the
 * body, its name in `x-file-name` (URI-encoded), the same types and limits as a conversation's
 * upload; counted against the uploader's storage and the project's → 201 `{id, name, size, mediaType, sha256}`.
 */
export const POST = route<{ id: string }>(
  async ({ request, params }) => {
    // Authorized before reading or storing anything.
    const { user, id, db } = await projectRequest(params.id, 'change_instructions');
    const upload = uploadRequest(request);
    const limits = { maxBytes: upload.maxBytes, tooLarge: upload.tooLarge, signal: request.signal };
    const stored = await storeProjectUpload(db, await getBlobStore(), { userId: user.userId, projectId: id }, upload.file, upload.body, limits);
    recordUpload(stored.size);
    return Response.json({ ...stored, location: 'account' }, { status: 201 });
  },
  { body: 'bytes' },
);
