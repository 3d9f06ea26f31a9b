'use client';

import { z } from 'zod';
import { readJsonAs } from '@/lib/http/error-body.client';
import type { StoreFile } from '@/lib/targets/pipeline.client';

const storedSchema = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** Stores a run's output file in the conversation (the run pipeline's file step); its sha256, or null. */
export function conversationFileStore(conversationId: string): StoreFile {
  return async ({ name, mediaType, bytes }) => {
    try {
      const response = await fetch(`/api/conversations/${conversationId}/outputs`, {
        method: 'POST',
        headers: { 'content-type': mediaType },
        body: new Blob([bytes.slice()], { type: mediaType }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = await readJsonAs(response, storedSchema);
      if (!body) throw new Error('the server’s answer was not understood');
      return body.sha256;
    } catch (error) {
      // The file stays downloadable from this page; it is not stored with the conversation.
      console.warn(`Output file ${name} was not stored:`, error);
      return null;
    }
  };
}
