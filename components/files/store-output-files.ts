'use client';

import type { StoreFile } from '@/lib/targets/pipeline';

/** Stores a run's output file in the conversation (the run pipeline's file step); its sha256, or null. */
export function conversationFileStore(conversationId: string): StoreFile {
  return async ({ mediaType, bytes }) => {
    const response = await fetch(`/api/conversations/${conversationId}/outputs`, {
      method: 'POST',
      headers: { 'content-type': mediaType },
      body: new Blob([bytes.slice()], { type: mediaType }),
    });
    if (!response.ok) return null;
    const { sha256 } = (await response.json()) as { sha256: string };
    return sha256;
  };
}
