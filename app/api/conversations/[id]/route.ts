import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { deleteConversation, getConversation, renameConversation } from '@/lib/db/queries/conversations';
import { listMessages } from '@/lib/db/queries/messages';
import { notFound } from '@/lib/http/errors';
import { readJson } from '@/lib/http/read-json';
import { route } from '@/lib/http/route';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

const renameSchema = z.object({ title: z.string().trim().min(1).max(200) });
type Params = { id: string };

/** The conversation as stored: what a tab refreshes from when another tab (or a failure) changed it. */
export const GET = route<Params>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
  const db = await getDb();
  const conversation = await getConversation(db, user.userId, params.id);
  if (!conversation) return notFound('conversation not owned');
  return Response.json({ id: params.id, title: conversation.title, messages: await listMessages(db, params.id) }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    if (!user.ok) return user.response;
    if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
    const body = await readJson(request, renameSchema, 16_384);
    if (!body.ok) return body.response;
    const renamed = await renameConversation(await getDb(), user.userId, params.id, body.value.title);
    return renamed ? Response.json({ id: params.id, title: body.value.title }) : notFound('conversation not owned');
  },
  { body: 'json' },
);

export const DELETE = route<Params>(async ({ params }) => {
  const user = await requireUser();
  if (!user.ok) return user.response;
  if (!conversationIdSchema.safeParse(params.id).success) return notFound('malformed conversation id');
  const deleted = await deleteConversation(await getDb(), user.userId, params.id);
  return deleted ? new Response(null, { status: 204 }) : notFound('conversation not owned');
});
