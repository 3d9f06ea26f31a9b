import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { deleteConversation, renameConversation } from '@/lib/db/queries/conversations';
import { notFound } from '@/lib/http/errors';
import { readJson } from '@/lib/http/read-json';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

const renameSchema = z.object({ title: z.string().trim().min(1).max(200) });
type Context = { params: Promise<{ id: string }> };

export async function PATCH(request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  const body = await readJson(request, renameSchema, 16_384);
  if (!body.ok) return body.response;
  const renamed = await renameConversation(await getDb(), user.userId, id, body.value.title);
  return renamed ? Response.json({ id, title: body.value.title }) : notFound();
}

export async function DELETE(_request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  const deleted = await deleteConversation(await getDb(), user.userId, id);
  return deleted ? new Response(null, { status: 204 }) : notFound();
}
