'use client';

import { failureWords } from '@/lib/http/error-body.client';

/**
 * Asks the server to stop the answer upstream (the page has already stopped showing it). Null
 * when the server took the Stop; otherwise the words to show: the model may finish the answer
 * there, and it will then appear when the conversation is next read.
 */
export async function stopUpstream(conversationId: string): Promise<string | null> {
  const response = await fetch(`/api/chat/${conversationId}/stop`, { method: 'POST' }).catch((error: unknown) => {
    console.warn('Stop did not reach the server.', error);
    return null;
  });
  if (response?.ok) return null;
  const why = await failureWords(response, 'Runpad could not be reached.');
  return `Stop did not reach the server, so the model may finish this answer there; it will show when this conversation is next read. ${why}`;
}
