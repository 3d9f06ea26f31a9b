import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { parseRange } from '@/lib/blobs/blob-store.server';
import { getDb } from '@/lib/db/client.server';
import { authorize } from '@/lib/access/authorize.server';
import { getBlobForConversation, getBlobForShare, getBlobForUser } from '@/lib/db/queries/blobs.server';
import { getBlobForDataset, getBlobForProject } from '@/lib/files/project-files.server';
import { datasetBlobThroughConversation } from '@/lib/chat/project-datasets.server';
import { servingHeaders } from '@/lib/files/media-types.server';
import { AppError, isAppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { askingSubject, conversationIdSchema, idOrNotFound, requireUser, sha256Schema, shareIdSchema } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/**
 * A stored image or file: to the owner of a conversation that references it, or to anyone
 * holding an active share link whose snapshot holds it (`?share=<id>`), or to whoever may read
 * a conversation's datasets (lib/access/authorize.server.ts) when that conversation references it
 * or uses a dataset of its project that holds it as an upload, which that person may read (a
 * conversation's reader reads those, never the project's others) (`?conversation=<id>`), or to a
 * project's members when its dataset library holds it as an upload (`?project=<id>`, `read_dataset`),
 * or to whoever may read that dataset of a project's library (`?dataset=<id>`); a share's link is asked the same rule (whom it opens for). Served as the media
 * type of that reference, inline only when the type is on the allow-list; streamed from the blob
 * store, with `Range` (206) and an `ETag` that is the content hash itself.
 */
/** What may not be read is the same 404 as a file that does not exist. */
const notReadable = (error: unknown) => {
  throw isAppError(error) && error.status === 404 ? new AppError('file:not_found', { reason: 'not readable' }) : error;
};

export const GET = route<{ sha: string }>(async ({ request, params }) => {
  const sha256 = idOrNotFound(sha256Schema, params.sha, 'file:not_found', 'blob id');
  const shareParam = new URL(request.url).searchParams.get('share');
  const conversationParam = new URL(request.url).searchParams.get('conversation');
  const projectParam = new URL(request.url).searchParams.get('project');
  const datasetParam = new URL(request.url).searchParams.get('dataset');
  const db = await getDb();
  let blob = null;
  if (shareParam !== null) {
    // To whoever the link opens for (anyone, or signed-in people only; no one while links are off).
    const shareId = idOrNotFound(shareIdSchema, shareParam, 'file:not_found', 'share id');
    await authorize(db, await askingSubject(), 'read_dataset', { share: shareId }).catch((error: unknown) => {
      throw isAppError(error) && error.status === 404 ? new AppError('file:not_found', { reason: 'share not readable' }) : error;
    });
    blob = await getBlobForShare(db, shareId, sha256);
  } else if (conversationParam !== null) {
    // A conversation's file, to whoever may read its datasets' bytes (its owner, its readers).
    const conversationId = idOrNotFound(conversationIdSchema, conversationParam, 'file:not_found', 'conversation id');
    const who = await requireUser();
    await authorize(db, who, 'read_dataset', { conversation: conversationId }).catch(notReadable);
    blob = (await getBlobForConversation(db, conversationId, sha256)) ?? (await datasetBlobThroughConversation(db, who, conversationId, sha256));
  } else if (projectParam !== null) {
    // A project's uploaded dataset, to its members (a device-kept one has no bytes here).
    const projectId = idOrNotFound(conversationIdSchema, projectParam, 'file:not_found', 'project id');
    await authorize(db, await requireUser(), 'read_dataset', { project: projectId }).catch(notReadable);
    blob = await getBlobForProject(db, projectId, sha256);
  } else if (datasetParam !== null) {
    // One dataset of a project's library, to whoever may read it (its members, the readers of a conversation that uses it).
    const datasetId = idOrNotFound(conversationIdSchema, datasetParam, 'file:not_found', 'dataset id');
    await authorize(db, await requireUser(), 'read_dataset', { dataset: datasetId });
    blob = await getBlobForDataset(db, datasetId, sha256);
  } else {
    const user = await requireUser();
    blob = await getBlobForUser(db, user.userId, sha256);
  }
  if (!blob) throw new AppError('file:not_found', { reason: 'blob not granted' });
  const etag = `"${blob.sha256}"`;
  const headers: Record<string, string> = {
    ...servingHeaders(blob.mediaType),
    etag,
    'accept-ranges': 'bytes',
    // Content-addressed: the bytes behind a hash never change; access is checked per request.
    // Granted through a project or a conversation's readers, the browser asks again each time
    // (a 304 while the grant holds), so a removed member or reader is refused at once.
    // no-transform: served as stored, never gzipped on the fly by Next or a proxy (a 100 MB CSV
    // would cost CPU per download, and Range offsets are offsets into the stored bytes).
    'cache-control': projectParam !== null || conversationParam !== null || datasetParam !== null ? 'private, no-cache, no-transform' : 'private, max-age=31536000, immutable, no-transform',
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const range = parseRange(request.headers.get('range'), blob.size);
  if (range === 'unsatisfiable') throw new AppError('request:range_not_satisfiable', { reason: `range ${request.headers.get('range')}`, headers: { 'content-range': `bytes */${blob.size}` } });
  const store = await getBlobStore();
  const body = await store.read(blob.sha256, range ?? undefined);
  if (!body) throw new AppError('blobs:missing', { reason: `blob ${blob.sha256} missing from the store` });
  // Next drops Content-Length from a route's response (send-response.js); Content-Range and the
  // file list carry the size.
  if (!range) return new Response(body, { headers });
  return new Response(body, {
    status: 206,
    headers: { ...headers, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${blob.size}` },
  });
});
