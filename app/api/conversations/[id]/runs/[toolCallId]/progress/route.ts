import { RUN_PROGRESS_MAX_BYTES, runProgressSchema } from '@/lib/chat/run-progress.server';
import { getDb } from '@/lib/db/client.server';
import { saveRunProgress } from '@/lib/db/queries/run-progress.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** What a run in the page has done so far (its outputs, how long it has run): kept for a run its page never finishes. */
export const PUT = route<{ id: string; toolCallId: string }>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    if (params.toolCallId.length > 200) throw new AppError('conversation:not_found', { reason: 'malformed run reference' });
    const progress = await readJson(request, runProgressSchema, RUN_PROGRESS_MAX_BYTES);
    const saved = await saveRunProgress(await getDb(), user.userId, id, params.toolCallId, { ...progress, startedAt: new Date(progress.startedAt) });
    if (!saved) throw new AppError('conversation:not_found', { reason: 'run progress for a conversation not owned' });
    return Response.json({ ok: true });
  },
  { body: 'json' },
);
