import { getDb } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { route } from '@/lib/http/route.server';
import { AppError } from '@/lib/errors.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';
import { getAppStreams } from '@/lib/streams/app-streams.server';

export const runtime = 'nodejs';

/**
 * Stop: ends the answer being written, upstream too (the model request is aborted, whichever
 * instance runs it). Closing the connection alone does not: a reload must not stop an answer.
 */
export const POST = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  const conversationId = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  if (!(await getConversation(await getDb(), user.userId, conversationId))) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  const { registry } = await getAppStreams();
  const stopped = await registry.stop(conversationId);
  return Response.json({ stopped });
});
