import { notFound } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { conversationIdSchema, requireUser } from '@/lib/http/session';
import { loadConversationExport, scriptResponse } from '@/lib/notebook/load-export';

export const runtime = 'nodejs';

/** The conversation's code as a Python script (.py, percent cell format), as a download: to its owner only. */
export const GET = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
  const source = await loadConversationExport(user.userId, params.id);
  if (!source) return notFound('conversation not owned');
  return scriptResponse(source);
});
