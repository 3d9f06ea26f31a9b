import { getDb } from '@/lib/db/client';
import { getConversation } from '@/lib/db/queries/conversations';
import { notFound } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { conversationIdSchema, requireUser } from '@/lib/http/session';
import { getAppStreams } from '@/lib/streams/app-streams';

export const runtime = 'nodejs';

/**
 * Stop: ends the answer being written, upstream too (the model request is aborted, whichever
 * instance runs it). Closing the connection alone does not: a reload must not stop an answer.
 */
export const POST = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
  if (!(await getConversation(await getDb(), user.userId, params.id))) return notFound('conversation not owned');
  const { registry } = await getAppStreams();
  const stopped = await registry.stop(params.id);
  return Response.json({ stopped });
});
