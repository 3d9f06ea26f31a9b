import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';
import { loadConversationExport, notebookResponse } from '@/lib/notebook/load-export.server';

export const runtime = 'nodejs';

/** The conversation as a Jupyter notebook (.ipynb) with its outputs, as a download: to its owner only. */
export const GET = route<{ id: string }>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const source = await loadConversationExport(user.userId, id);
  if (!source) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  return notebookResponse(source);
});
