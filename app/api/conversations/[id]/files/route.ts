import { getDb } from '@/lib/db/client';
import { getConversation } from '@/lib/db/queries/conversations';
import { listFiles, removeFile } from '@/lib/db/queries/files';
import { UPLOAD_LIMITS } from '@/lib/files/accept';
import { checkUpload, storeUpload } from '@/lib/files/store-upload';
import { formatBytes } from '@/lib/format';
import { jsonError, notFound } from '@/lib/http/errors';
import { readBytes } from '@/lib/http/read-bytes';
import { conversationIdSchema, requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

type Context = { params: Promise<{ id: string }> };

export async function GET(_request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  const db = await getDb();
  if (!(await getConversation(db, user.userId, id))) return notFound();
  return Response.json({ files: await listFiles(db, id) });
}

/** Uploads one file: the raw bytes as the body, its name in the `x-file-name` header (URI-encoded). */
export async function POST(request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  if (!conversationIdSchema.safeParse(id).success) return notFound();
  let rawName = '';
  try {
    rawName = decodeURIComponent(request.headers.get('x-file-name') ?? '');
  } catch {
    return jsonError(400, 'The file name is not valid.');
  }
  const checked = checkUpload(rawName);
  if (!checked.ok) return jsonError(checked.status, checked.message);
  const bytes = await readBytes(request, UPLOAD_LIMITS.fileBytes);
  if (!bytes) return jsonError(413, `“${checked.name}” is larger than the ${formatBytes(UPLOAD_LIMITS.fileBytes)} limit per file.`);
  const stored = await storeUpload(await getDb(), user.userId, id, rawName, bytes);
  return stored.ok ? Response.json(stored.file, { status: 201 }) : jsonError(stored.status, stored.message);
}

export async function DELETE(request: Request, { params }: Context) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const { id } = await params;
  const name = new URL(request.url).searchParams.get('name');
  if (!conversationIdSchema.safeParse(id).success || !name) return notFound();
  const removed = await removeFile(await getDb(), user.userId, id, name);
  return removed ? new Response(null, { status: 204 }) : notFound();
}
