'use client';

import { z } from 'zod';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';
import type { Attachment } from '@/lib/messages/attachment';

const recordedSchema = z.object({ name: z.string(), size: z.number(), mediaType: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), location: z.literal('device') });

export type Recorded = { ok: true; file: Attachment } | { ok: false; message: string };

/** Tells the server a file is kept on this device in this conversation (its name, size and SHA-256; never its bytes). */
export async function recordDeviceFile(conversationId: string, file: { name: string; size: number; sha256: string }): Promise<Recorded> {
  let response: Response;
  try {
    response = await fetch(`/api/conversations/${conversationId}/device-files`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(file) });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return { ok: false, message: 'The file is kept on this device, but the server could not be reached to add it to the conversation. Try again.' };
  }
  if (response.status === 201) {
    const body = await readJsonAs(response, recordedSchema);
    if (body) return { ok: true, file: body };
    return { ok: false, message: 'The server’s answer was not understood.' };
  }
  return { ok: false, message: await failureWords(response, `The file could not be added (HTTP ${response.status}).`) };
}
