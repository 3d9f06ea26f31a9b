import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { authorize } from '@/lib/access/authorize.server';
import { deleteConversation, getConversationById, renameConversation } from '@/lib/db/queries/conversations.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const renameSchema = z.object({ title: z.string().trim().min(1).max(200) });
type Params = { id: string };

/** The conversation as stored (to its owner and its readers): what a tab refreshes from when another tab (or a failure) changed it. */
export const GET = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  await authorize(db, user, 'read', { conversation: id });
  const conversation = await getConversationById(db, id);
  if (!conversation) throw notOwned();
  return Response.json({ id, title: conversation.title, messages: await listMessages(db, id) }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    const { title } = await readJson(request, renameSchema, 16_384);
    await authorize(await getDb(), user, 'change_instructions', { conversation: id });
    if (!(await renameConversation(await getDb(), user.userId, id, title))) throw notOwned();
    return Response.json({ id, title });
  },
  { body: 'json' },
);

export const DELETE = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  await authorize(await getDb(), user, 'delete', { conversation: id });
  if (!(await deleteConversation(await getDb(), user.userId, id))) throw notOwned();
  return new Response(null, { status: 204 });
});

const notOwned = () => new AppError('conversation:not_found', { reason: 'conversation not owned' });
