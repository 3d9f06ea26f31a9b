import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getDb } from '@/lib/db/client.server';
import { deleteBlobIfUnreferenced } from '@/lib/db/queries/blobs.server';
import { deletePersonData } from '@/lib/db/queries/delete-account.server';
import { route } from '@/lib/http/route.server';
import { requireAccount } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** Deletes the signed-in account with all its data, and the stored contents nothing else references. */
export const DELETE = route(async ({ log }) => {
  const user = await requireAccount();
  const db = await getDb();
  const referenced = await deletePersonData(db, user.userId);
  const store = await getBlobStore();
  for (const sha256 of referenced) await deleteBlobIfUnreferenced(db, store, sha256);
  log.info({ account: user.userId, blobs: referenced.length }, 'account deleted');
  return Response.json({ deleted: true });
});
