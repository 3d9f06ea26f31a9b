'use client';

/**
 * Moves a conversation's file between this device and the person's account, under the same name
 * (PATCH /api/conversations/<id>/files, lib/files/file-queries.server.ts `setFileLocation`):
 * - to the account: the kept bytes are uploaded (the upload route and its per-file limit), the
 *   record becomes an account file, and the upload's own record is removed;
 * - to this device: the account's bytes are downloaded into the device's storage (checked by
 *   SHA-256), and the server's copy for this conversation is released.
 * Each resolves with the file as the server now records it, or the words of what went wrong.
 */
import { z } from 'zod';
import type { Attachment } from '@/lib/messages/attachment';
import type { DataFileLocation } from '@/lib/files/data-file';
import { deviceFile } from '@/lib/files/device-files.client';
import { keepOnDevice } from '@/lib/files/keep-on-device.client';
import { formatBytes } from '@/lib/format';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';
import { uploadFile } from './upload-request';

const fileSchema = z.object({ name: z.string(), size: z.number(), mediaType: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), location: z.enum(['account', 'device']) });

export type Switched = { ok: true; file: Attachment } | { ok: false; message: string };

async function setLocation(conversationId: string, name: string, location: DataFileLocation): Promise<Switched> {
  const response = await fetch(`/api/conversations/${conversationId}/files`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, location }) }).catch((error: unknown) => {
    if (error instanceof TypeError) return null;
    throw error;
  });
  if (response?.ok) {
    const file = await readJsonAs(response, fileSchema);
    return file ? { ok: true, file } : { ok: false, message: 'The server’s answer was not understood.' };
  }
  return { ok: false, message: await failureWords(response, 'The server could not be reached; the file stays where it was.') };
}

/** Uploads a file kept on this device and records it in the account instead, under the same name. */
export async function moveToAccount(conversationId: string, file: { name: string; sha256: string }, uploadFileBytes: number, onProgress?: (sent: number, total: number) => void): Promise<Switched> {
  const kept = await deviceFile(file.sha256);
  if (!kept) return { ok: false, message: `${file.name} is not kept on this device, so it cannot be uploaded from here.` };
  if (kept.size > uploadFileBytes) return { ok: false, message: `${file.name} is ${formatBytes(kept.size)}; files in your account are limited to ${formatBytes(uploadFileBytes)} each, so it stays on this device.` };
  const uploaded = await uploadFile(`/api/conversations/${conversationId}/files`, kept, file.name, (phase) => {
    if (phase.kind === 'sending') onProgress?.(phase.sent, phase.total);
  });
  if (uploaded.kind === 'failed') return { ok: false, message: uploaded.message };
  const switched = await setLocation(conversationId, file.name, 'account');
  // The upload was recorded under a name of its own ("name (1)"): the moved record holds the bytes now.
  if (uploaded.stored.name !== file.name) await fetch(`/api/conversations/${conversationId}/files?name=${encodeURIComponent(uploaded.stored.name)}`, { method: 'DELETE' });
  return switched;
}

/** Downloads an account file into this device's storage (checked by SHA-256) and releases the server's copy for this conversation. */
export async function moveToDevice(conversationId: string, file: { name: string; sha256: string; mediaType: string }, onProgress?: (written: number, total: number) => void): Promise<Switched> {
  if (!(await deviceFile(file.sha256))) {
    const response = await fetch(`/api/blobs/${file.sha256}`).catch((error: unknown) => {
      if (error instanceof TypeError) return null;
      throw error;
    });
    if (!response?.ok) return { ok: false, message: await failureWords(response, `${file.name} could not be downloaded from your account; it stays there.`) };
    const kept = await keepOnDevice(await response.blob(), { name: file.name, mediaType: file.mediaType, expectedSha256: file.sha256, onProgress });
    if (kept.kind === 'failed') return { ok: false, message: kept.message };
    if (kept.kind === 'different') return { ok: false, message: `${file.name} arrived damaged (its bytes do not match its SHA-256); it stays in your account. Try again.` };
  }
  return setLocation(conversationId, file.name, 'device');
}
