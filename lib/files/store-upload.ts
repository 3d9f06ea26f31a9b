/**
 * Stores one upload or run output for a conversation, streaming: the bytes go to the blob store
 * as they arrive (hashed on the way, stopped at the size limit, never whole in memory), then the
 * conversation's reference is added with its quota reserved atomically. Refused bytes are not kept.
 */
import 'server-only';
import type { BlobSource, BlobStore } from '@/lib/blobs/blob-store';
import { BlobTooLargeError } from '@/lib/blobs/blob-store';
import type { Db } from '@/lib/db/client';
import { deleteBlobIfUnreferenced, linkBlob, recordBlob } from '@/lib/db/queries/blobs';
import { createConversation, getConversation } from '@/lib/db/queries/conversations';
import { addFile } from '@/lib/db/queries/files';
import { exceededQuota, QuotaExceededError } from '@/lib/db/queries/quota';
import { acceptedMediaType, ACCEPTED_DESCRIPTION, sanitizeFileName } from './accept';
import { quotaMessage, storageQuota } from './storage-quota';

export type StoredFile = { name: string; size: number; mediaType: string; sha256: string };
export type StoreResult<T> = { ok: true; value: T } | { ok: false; status: 404 | 413; message: string; reason: string };
type Checked = { ok: true; name: string; mediaType: string } | { ok: false; status: number; message: string };

export function checkUpload(rawName: string): Checked {
  const name = sanitizeFileName(rawName);
  if (!name) return { ok: false, status: 400, message: 'The file name is empty or not allowed.' };
  const mediaType = acceptedMediaType(name);
  if (!mediaType) return { ok: false, status: 415, message: `“${name}” is not a supported type. Accepted: ${ACCEPTED_DESCRIPTION}.` };
  return { ok: true, name, mediaType };
}

/** The user's conversation (created when new), or null when the id is someone else's. */
export async function ownOrNewConversation(db: Db, userId: string, conversationId: string) {
  const existing = await getConversation(db, userId, conversationId);
  if (existing) return existing;
  try {
    return await createConversation(db, userId, { id: conversationId });
  } catch {
    return null; // the id belongs to someone else: answer as if it did not exist
  }
}

/** An early refusal when the declared size cannot fit, before any byte is read. */
export async function checkHeadroom(db: Db, userId: string, conversationId: string, declaredBytes: number): Promise<string | null> {
  const exceeded = await exceededQuota(db, userId, conversationId, declaredBytes, storageQuota());
  return exceeded ? quotaMessage(exceeded) : null;
}

type Target = { userId: string; conversationId: string };
type Reference = (db: Db, stored: { sha256: string; size: number }) => Promise<string | null>;

/**
 * Streams `body` into the store, then adds the reference `reference` makes (a file by name, or
 * a plain blob link). The conversation must be the user's: callers authorize first.
 */
async function storeStream(db: Db, store: BlobStore, body: BlobSource, maxBytes: number, tooLarge: string, reference: Reference, signal?: AbortSignal): Promise<StoreResult<{ sha256: string; size: number; name: string | null }>> {
  let stored;
  try {
    stored = await store.put(body, { maxBytes, signal });
  } catch (error) {
    if (error instanceof BlobTooLargeError) return { ok: false, status: 413, message: tooLarge, reason: 'too large' };
    throw error;
  }
  await recordBlob(db, stored);
  try {
    const name = await reference(db, stored);
    return { ok: true, value: { ...stored, name } };
  } catch (error) {
    await deleteBlobIfUnreferenced(db, store, stored.sha256);
    if (error instanceof QuotaExceededError) return { ok: false, status: 413, message: quotaMessage(error), reason: 'storage quota' };
    throw error;
  }
}

export async function storeUpload(db: Db, store: BlobStore, target: Target, file: { name: string; mediaType: string }, body: BlobSource, limits: { maxBytes: number; tooLarge: string; signal?: AbortSignal }): Promise<StoreResult<StoredFile>> {
  const result = await storeStream(db, store, body, limits.maxBytes, limits.tooLarge, (tx, stored) =>
    addFile(tx, target.userId, target.conversationId, { name: file.name, mediaType: file.mediaType, ...stored }, storageQuota()), limits.signal);
  if (!result.ok) return result;
  if (result.value.name === null) return { ok: false, status: 404, message: 'Not found.', reason: 'conversation not owned' };
  return { ok: true, value: { name: result.value.name, size: result.value.size, mediaType: file.mediaType, sha256: result.value.sha256 } };
}

/** A file a run wrote under /output/: a blob linked to the conversation, with its media type. */
export async function storeOutput(db: Db, store: BlobStore, target: Target, mediaType: string, body: BlobSource, limits: { maxBytes: number; tooLarge: string; signal?: AbortSignal }): Promise<StoreResult<{ sha256: string; size: number }>> {
  const result = await storeStream(db, store, body, limits.maxBytes, limits.tooLarge, async (tx, stored) => {
    await linkBlob(tx, target.userId, target.conversationId, { ...stored, mediaType }, storageQuota());
    return null;
  }, limits.signal);
  return result.ok ? { ok: true, value: { sha256: result.value.sha256, size: result.value.size } } : result;
}
