import { getDb } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { deleteBlobIfUnreferenced } from '@/lib/db/queries/blobs.server';
import { listFiles, removeFile, setFileLocation } from '@/lib/files/file-queries.server';
import { AppError } from '@/lib/errors.server';
import { checkHeadroom, ownOrNewConversation, storeUpload, uploadRequest } from '@/lib/files/store-upload.server';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { storageQuota } from '@/lib/files/storage-quota.server';
import { readJson } from '@/lib/http/read-json.server';
import { z } from 'zod';
import { route } from '@/lib/http/route.server';
import { recordUpload } from '@/lib/metrics/registry.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };

export const GET = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  if (!(await getConversation(db, user.userId, id))) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  return Response.json({ files: await listFiles(db, id) });
});

/** Uploads one file: the raw bytes as the body, its name in the `x-file-name` header (URI-encoded). */
export const POST = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    const upload = uploadRequest(request);
    const db = await getDb();
    // Authorize before reading or storing anything.
    await ownOrNewConversation(db, user.userId, id);
    await checkHeadroom(db, user.userId, id, upload.declared);
    const stored = await storeUpload(db, await getBlobStore(), { userId: user.userId, conversationId: id }, upload.file, upload.body, {
      maxBytes: upload.maxBytes,
      tooLarge: upload.tooLarge,
      signal: request.signal,
    });
    recordUpload(stored.size);
    return Response.json(stored, { status: 201 });
  },
  { body: 'bytes' },
);

export const DELETE = route<Params>(async ({ request, params }) => {
  const user = await requireUser();
  const name = new URL(request.url).searchParams.get('name');
  if (!conversationIdSchema.safeParse(params.id).success || !name || name.length > 300) throw new AppError('file:not_found', { reason: 'malformed file reference' });
  const db = await getDb();
  const removed = await removeFile(db, user.userId, params.id, name);
  if (removed === undefined) throw new AppError('file:not_found', { reason: 'file not found or not owned' });
  // A file kept on the device held no blob: nothing more to free here.
  if (removed !== null) await deleteBlobIfUnreferenced(db, await getBlobStore(), removed);
  return new Response(null, { status: 204 });
});

const locationChangeSchema = z.strictObject({ name: z.string().min(1).max(300), location: z.enum(['account', 'device']) });

/**
 * Moves a named file between the person's device and their account (lib/files/file-queries.server.ts,
 * `setFileLocation`). To the account, its bytes must have been uploaded first (409 otherwise) and
 * count against the quota; to the device, this conversation's copy is released (the blob is
 * deleted when nothing references it any more).
 */
export const PATCH = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    const change = await readJson(request, locationChangeSchema);
    const db = await getDb();
    const result = await setFileLocation(db, user.userId, id, change.name, change.location, storageQuota());
    if (result.kind === 'not-found') throw new AppError('file:not_found', { reason: 'file not found or not owned' });
    if (result.kind === 'not-uploaded') throw new AppError('file:not_uploaded', { reason: 'no blob of the person with that sha256' });
    if (result.released !== null) await deleteBlobIfUnreferenced(db, await getBlobStore(), result.released);
    return Response.json(result.file);
  },
  { body: 'json' },
);
