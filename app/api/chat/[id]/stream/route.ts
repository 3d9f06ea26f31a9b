import { getDb } from '@/lib/db/client.server';
import { authorize } from '@/lib/access/authorize.server';
import { route } from '@/lib/http/route.server';
import { ANSWER_STREAM_HEADERS } from '@/lib/http/answer-stream-headers.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';
import { resumeLiveAnswer } from '@/lib/streams/app-streams.server';

export const runtime = 'nodejs';
export const maxDuration = 300;

/**
 * The answer being written for this conversation, from its first chunk, then live (the AI SDK's
 * `resume`): a reloaded page shows the text so far at once. 204 when no answer is being written.
 */
export const GET = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  const conversationId = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  await authorize(await getDb(), user, 'read', { conversation: conversationId });
  // Unknown (Redis down) is answered like none: the page shows what is stored, without an error.
  const stream = await resumeLiveAnswer(conversationId);
  if (!stream) return new Response(null, { status: 204 });
  return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: ANSWER_STREAM_HEADERS });
});
