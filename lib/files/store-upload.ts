/**
 * Stores one upload for a conversation (creating the conversation when the user starts a new
 * one by dropping a file). Every check happens before anything is written.
 */
import 'server-only';
import type { Db } from '@/lib/db/client';
import { putBlob } from '@/lib/db/queries/blobs';
import { createConversation, getConversation } from '@/lib/db/queries/conversations';
import { addFile, totalFileBytes } from '@/lib/db/queries/files';
import { formatBytes } from '@/lib/format';
import { acceptedMediaType, ACCEPTED_DESCRIPTION, sanitizeFileName, UPLOAD_LIMITS } from './accept';

export type UploadResult = { ok: true; file: { name: string; size: number; mediaType: string; sha256: string } } | { ok: false; status: number; message: string };

export function checkUpload(rawName: string): { ok: true; name: string; mediaType: string } | { ok: false; status: number; message: string } {
  const name = sanitizeFileName(rawName);
  if (!name) return { ok: false, status: 400, message: 'The file name is empty or not allowed.' };
  const mediaType = acceptedMediaType(name);
  if (!mediaType) return { ok: false, status: 415, message: `“${name}” is not a supported type. Accepted: ${ACCEPTED_DESCRIPTION}.` };
  return { ok: true, name, mediaType };
}

export async function storeUpload(db: Db, userId: string, conversationId: string, rawName: string, bytes: Uint8Array): Promise<UploadResult> {
  const checked = checkUpload(rawName);
  if (!checked.ok) return checked;
  const conversation = (await getConversation(db, userId, conversationId)) ?? (await createOwned(db, userId, conversationId));
  if (!conversation) return { ok: false, status: 404, message: 'Not found.' };
  const used = await totalFileBytes(db, conversationId);
  if (used + bytes.byteLength > UPLOAD_LIMITS.conversationBytes) {
    return { ok: false, status: 413, message: `This conversation's files would exceed ${formatBytes(UPLOAD_LIMITS.conversationBytes)}; remove some first.` };
  }
  const sha256 = await putBlob(db, { bytes, mediaType: checked.mediaType });
  const name = await addFile(db, userId, conversationId, { name: checked.name, sha256, mediaType: checked.mediaType, size: bytes.byteLength });
  if (!name) return { ok: false, status: 404, message: 'Not found.' };
  return { ok: true, file: { name, size: bytes.byteLength, mediaType: checked.mediaType, sha256 } };
}

async function createOwned(db: Db, userId: string, id: string) {
  try {
    return await createConversation(db, userId, { id });
  } catch {
    return null; // the id belongs to someone else: answer as if it did not exist
  }
}
