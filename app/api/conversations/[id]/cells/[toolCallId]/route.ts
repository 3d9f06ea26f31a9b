import { cellRunSchema, saveCellRun } from '@/lib/chat/cell-runs';
import { getDb } from '@/lib/db/client';
import { QuotaExceededError } from '@/lib/db/queries/quota';
import { quotaMessage } from '@/lib/files/storage-quota';
import { jsonError, notFound } from '@/lib/http/errors';
import { readJson } from '@/lib/http/read-json';
import { route } from '@/lib/http/route';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

/** Records that the user ran a cell again or edited and ran it (code and new result). */
export const PUT = route<{ id: string; toolCallId: string }>(
  async ({ request, params }) => {
    const user = await requireUser();
    if (!user.ok) return user.response;
    const { id, toolCallId } = params;
    if (!conversationIdSchema.safeParse(id).success || toolCallId.length > 200) return notFound('malformed cell reference');
    const body = await readJson(request, cellRunSchema);
    if (!body.ok) return body.response;
    try {
      const saved = await saveCellRun(await getDb(), user.userId, id, toolCallId, body.value);
      return saved ? Response.json({ ok: true }) : notFound('cell not found in an owned conversation');
    } catch (error) {
      if (error instanceof QuotaExceededError) return jsonError(413, quotaMessage(error), { reason: 'storage quota' });
      throw error;
    }
  },
  { body: 'json' },
);
