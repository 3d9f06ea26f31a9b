import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getDb } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { UPLOAD_LIMITS } from '@/lib/files/accept';
import { storableMediaType } from '@/lib/files/media-types.server';
import { checkHeadroom, storeOutput } from '@/lib/files/store-upload.server';
import { formatBytes } from '@/lib/format';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** Stores a file a run wrote under /output/, so its download chip survives reload and sharing. */
export const POST = route<{ id: string }>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
    const db = await getDb();
    if (!(await getConversation(db, user.userId, id))) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
    const declared = Number(request.headers.get('content-length') ?? '0');
    await checkHeadroom(db, user.userId, id, Number.isFinite(declared) ? declared : 0);
    const tooLarge = `Output files are limited to ${formatBytes(UPLOAD_LIMITS.outputFileBytes)} each.`;
    if (declared > UPLOAD_LIMITS.outputFileBytes) throw new AppError('upload:too_large', { message: tooLarge, reason: `declared ${declared} bytes` });
    if (!request.body) throw new AppError('request:invalid', { message: 'The output has no body.', reason: 'no body' });
    const mediaType = storableMediaType(request.headers.get('content-type'));
    const stored = await storeOutput(db, await getBlobStore(), { userId: user.userId, conversationId: id }, mediaType, request.body, {
      maxBytes: UPLOAD_LIMITS.outputFileBytes,
      tooLarge,
      signal: request.signal,
    });
    return Response.json({ sha256: stored.sha256, mediaType }, { status: 201 });
  },
  { body: 'bytes' },
);
