import { cellRunSchema, saveCellRun } from '@/lib/chat/cell-runs';
import { getDb } from '@/lib/db/client';
import { notFound } from '@/lib/http/errors';
import { readJson } from '@/lib/http/read-json';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

/** Records that the user ran a cell again or edited and ran it (code and new result). */
export async function PUT(request: Request, { params }: { params: Promise<{ id: string; toolCallId: string }> }) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id, toolCallId } = await params;
  if (!conversationIdSchema.safeParse(id).success || toolCallId.length > 200) return notFound();
  const body = await readJson(request, cellRunSchema);
  if (!body.ok) return body.response;
  const saved = await saveCellRun(await getDb(), user.userId, id, toolCallId, body.value);
  return saved ? Response.json({ ok: true }) : notFound();
}
