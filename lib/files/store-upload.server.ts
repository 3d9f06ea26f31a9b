/**
 * Stores one upload or run output for a conversation, streaming: the bytes go to the blob store
 * as they arrive (hashed on the way, stopped at the size limit, never whole in memory), then the
 * conversation's reference is added with its quota reserved atomically. Refused bytes are not kept.
 */
import 'server-only';
import type { BlobSource, BlobStore } from '@/lib/blobs/blob-store.server';
import { BlobTooLargeError } from '@/lib/blobs/blob-store.server';
import { AppError } from '@/lib/errors.server';
import { logger } from '@/lib/log/logger.server';
import type { Db } from '@/lib/db/client.server';
import { deleteBlobIfUnreferenced, linkBlob, recordBlob } from '@/lib/db/queries/blobs.server';
import { getConversation, ownOrCreateConversation } from '@/lib/db/queries/conversations.server';
import { addFile } from './file-queries.server';
import { addProjectFile } from './project-files.server';
import { exceededQuota } from '@/lib/db/queries/quota.server';
import { acceptedMediaType, ACCEPTED_DESCRIPTION, sanitizeFileName } from './accept';
import { getConfig } from '@/lib/config.server';
import { formatBytes } from '@/lib/format';
import { quotaMessage, storageQuota } from './storage-quota.server';

export type StoredFile = { name: string; size: number; mediaType: string; sha256: string };
// Refusals are AppErrors (lib/errors.server.ts): thrown here, answered and logged once by route().

/** The upload's stored name and media type, or an AppError saying why not. */
export function checkUpload(rawName: string): { name: string; mediaType: string } {
  const name = sanitizeFileName(rawName);
  if (!name) throw new AppError('upload:invalid_name');
  const mediaType = acceptedMediaType(name);
  if (!mediaType) throw new AppError('upload:unsupported_type', { message: `“${name}” is not a supported type. Accepted: ${ACCEPTED_DESCRIPTION}.` });
  return { name, mediaType };
}

/**
 * What an upload request says before any byte is read: its file's stored name and media type (the
 * name URI-encoded in `x-file-name`), its declared size, refused at once when over the limit, and
 * its body, the raw bytes.
 */
export function uploadRequest(request: Request): { file: { name: string; mediaType: string }; declared: number; maxBytes: number; tooLarge: string; body: ReadableStream<Uint8Array> } {
  let rawName = '';
  try {
    rawName = decodeURIComponent(request.headers.get('x-file-name') ?? '');
  } catch {
    throw new AppError('upload:invalid_name', { message: 'The file name is not valid.', reason: 'file name not URI-encoded' });
  }
  const file = checkUpload(rawName);
  // The operator's per-file limit (RUNPAD_UPLOAD_FILE_BYTES); the page was told the same number.
  const maxBytes = getConfig().uploadFileBytes;
  const tooLarge = `“${file.name}” is larger than the ${formatBytes(maxBytes)} limit per file.`;
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new AppError('upload:too_large', { message: tooLarge, reason: `declared ${declared} bytes` });
  if (!request.body) throw new AppError('request:invalid', { message: 'The upload has no body.', reason: 'no body' });
  return { file, declared: Number.isFinite(declared) ? declared : 0, maxBytes, tooLarge, body: request.body };
}

/** The user's conversation (created when new); conversation:not_found when the id is someone else's. */
export async function ownOrNewConversation(db: Db, userId: string, conversationId: string) {
  const conversation = (await getConversation(db, userId, conversationId)) ?? (await ownOrCreateConversation(db, userId, { id: conversationId }));
  // Held by another person: answered as if it did not exist.
  if (!conversation) throw new AppError('conversation:not_found', { reason: 'conversation id owned by another user' });
  return conversation;
}

/** An early refusal when the declared size cannot fit, before any byte is read. */
export async function checkHeadroom(db: Db, userId: string, conversationId: string, declaredBytes: number): Promise<void> {
  const exceeded = await exceededQuota(db, userId, conversationId, declaredBytes, storageQuota());
  if (exceeded) throw new AppError('quota:exceeded', { message: quotaMessage(exceeded), reason: `storage quota (${exceeded.scope}, declared size)` });
}

type Target = { userId: string; conversationId: string };
type Reference = (db: Db, stored: { sha256: string; size: number }) => Promise<string | null>;

/**
 * Streams `body` into the store, then adds the reference `reference` makes (a file by name, or
 * a plain blob link). The conversation must be the user's: callers authorize first.
 */
async function storeStream(db: Db, store: BlobStore, body: BlobSource, maxBytes: number, tooLarge: string, reference: Reference, signal?: AbortSignal): Promise<{ sha256: string; size: number; name: string | null }> {
  const stored = await store.put(body, { maxBytes, signal }).catch((error: unknown) => {
    throw error instanceof BlobTooLargeError ? new AppError('upload:too_large', { message: tooLarge, reason: 'too large', cause: error }) : error;
  });
  await recordBlob(db, stored);
  try {
    const name = await reference(db, stored);
    return { ...stored, name };
  } catch (error) {
    // Nothing half-stored: bytes no reference holds go (when the database answers; else they
    // stay unreachable under their hash until the same bytes are stored again).
    await deleteBlobIfUnreferenced(db, store, stored.sha256).catch((cleanup: unknown) =>
      logger().warn({ err: cleanup, sha256: stored.sha256 }, 'unreferenced blob not removed after a refused or failed store'),
    );
    throw error; // a QuotaExceededError becomes quota:exceeded in route() (lib/http/to-app-error.server.ts)
  }
}

export async function storeUpload(db: Db, store: BlobStore, target: Target, file: { name: string; mediaType: string }, body: BlobSource, limits: { maxBytes: number; tooLarge: string; signal?: AbortSignal }): Promise<StoredFile> {
  const result = await storeStream(db, store, body, limits.maxBytes, limits.tooLarge, (tx, stored) =>
    addFile(tx, target.userId, target.conversationId, { name: file.name, mediaType: file.mediaType, ...stored }, storageQuota()), limits.signal);
  if (result.name === null) throw new AppError('conversation:not_found', { reason: 'conversation not owned when adding the file' });
  return { name: result.name, size: result.size, mediaType: file.mediaType, sha256: result.sha256 };
}

/**
 * An upload to a project's dataset library: streamed into the store as a conversation's upload is,
 * then added to the project under its name, counted against the uploader's storage and the
 * project's. The caller authorized the uploader to change the project's datasets.
 */
export async function storeProjectUpload(db: Db, store: BlobStore, target: { userId: string; projectId: string }, file: { name: string; mediaType: string }, body: BlobSource, limits: { maxBytes: number; tooLarge: string; signal?: AbortSignal }): Promise<StoredFile & { id: string }> {
  let id = '';
  const result = await storeStream(db, store, body, limits.maxBytes, limits.tooLarge, async (tx, stored) => {
    const added = await addProjectFile(tx, target.userId, target.projectId, { name: file.name, mediaType: file.mediaType, location: 'account', ...stored }, storageQuota());
    id = added.id;
    return added.name;
  }, limits.signal);
  return { id, name: result.name ?? file.name, size: result.size, mediaType: file.mediaType, sha256: result.sha256 };
}

/** A file a run wrote under /output/: a blob linked to the conversation, with its media type. */
export async function storeOutput(db: Db, store: BlobStore, target: Target, mediaType: string, body: BlobSource, limits: { maxBytes: number; tooLarge: string; signal?: AbortSignal }): Promise<{ sha256: string; size: number }> {
  const result = await storeStream(db, store, body, limits.maxBytes, limits.tooLarge, async (tx, stored) => {
    await linkBlob(tx, target.userId, target.conversationId, { ...stored, mediaType }, storageQuota());
    return null;
  }, limits.signal);
  return { sha256: result.sha256, size: result.size };
}
