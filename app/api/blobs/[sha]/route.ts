import { getDb } from '@/lib/db/client';
import { getBlobForShare, getBlobForUser } from '@/lib/db/queries/blobs';
import { notFound } from '@/lib/http/errors';
import { requireUser, sha256Schema, shareIdSchema } from '@/lib/http/session';

export const runtime = 'nodejs';

/**
 * A stored image or file: to the owner of a conversation that references it, or to anyone
 * holding an active share link of such a conversation (`?share=<id>`).
 */
export async function GET(request: Request, { params }: { params: Promise<{ sha: string }> }) {
  const { sha } = await params;
  if (!sha256Schema.safeParse(sha).success) return notFound();
  const shareId = new URL(request.url).searchParams.get('share');
  const db = await getDb();
  let blob = null;
  if (shareId) {
    if (!shareIdSchema.safeParse(shareId).success) return notFound();
    blob = await getBlobForShare(db, shareId, sha);
  } else {
    const user = await requireUser();
    if (!user.ok) return user.response;
    blob = await getBlobForUser(db, user.userId, sha);
  }
  if (!blob) return notFound();
  return new Response(Buffer.from(blob.bytes), {
    headers: {
      'content-type': blob.mediaType,
      'content-length': String(blob.size),
      // Content-addressed: the bytes behind a hash never change; access is checked per request.
      'cache-control': 'private, max-age=31536000, immutable',
      'content-security-policy': "default-src 'none'; sandbox",
    },
  });
}
