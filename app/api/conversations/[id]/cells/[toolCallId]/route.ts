import { cellRunSchema, saveCellRun } from '@/lib/chat/cell-runs.server';
import { getDb } from '@/lib/db/client.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** Records that the user ran a cell again or edited and ran it (code and new result). A full quota is refused by route() (quota:exceeded). */
export const PUT = route<{ id: string; toolCallId: string }>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    if (params.toolCallId.length > 200) throw new AppError('conversation:not_found', { reason: 'malformed cell reference' });
    const run = await readJson(request, cellRunSchema);
    const saved = await saveCellRun(await getDb(), user.userId, id, params.toolCallId, run);
    if (!saved) throw new AppError('conversation:not_found', { reason: 'cell not found in an owned conversation' });
    return Response.json({ ok: true });
  },
  { body: 'json' },
);
