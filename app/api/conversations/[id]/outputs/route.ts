import { getDb } from '@/lib/db/client';
import { putConversationBlob } from '@/lib/db/queries/blobs';
import { getConversation } from '@/lib/db/queries/conversations';
import { UPLOAD_LIMITS } from '@/lib/files/accept';
import { formatBytes } from '@/lib/format';
import { jsonError, notFound } from '@/lib/http/errors';
import { readBytes } from '@/lib/http/read-bytes';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

const MEDIA_TYPE = /^[a-z]+\/[a-z0-9.+-]+$/i;

/** Stores a file a run wrote under /output/, so its download chip survives reload and sharing. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  const db = await getDb();
  if (!(await getConversation(db, user.userId, id))) return notFound();
  const declared = request.headers.get('content-type') ?? '';
  const mediaType = MEDIA_TYPE.test(declared) ? declared : 'application/octet-stream';
  const bytes = await readBytes(request, UPLOAD_LIMITS.outputFileBytes);
  if (!bytes) return jsonError(413, `Output files are limited to ${formatBytes(UPLOAD_LIMITS.outputFileBytes)} each.`);
  const sha256 = await putConversationBlob(db, id, { bytes, mediaType });
  return Response.json({ sha256 }, { status: 201 });
}
