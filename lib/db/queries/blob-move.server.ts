/**
 * Moves blob bytes stored in the database by earlier versions into the blob store, one at a
 * time (never all in memory), clearing each row's bytes once the store holds them. Safe to run
 * from several instances at once: a row is cleared only after its bytes are stored, and storing
 * the same content twice is a no-op.
 */
import 'server-only';
import { eq, isNotNull } from 'drizzle-orm';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import type { Db } from '../client.server';
import { blobs } from '../schema.server';

export async function moveDatabaseBlobs(db: Db, store: BlobStore): Promise<number> {
  let moved = 0;
  for (;;) {
    const [row] = await db.select({ sha256: blobs.sha256, bytes: blobs.bytes }).from(blobs).where(isNotNull(blobs.bytes)).limit(1);
    if (!row?.bytes) return moved;
    const bytes = new Uint8Array(row.bytes);
    const stored = await store.put(
      (async function* () {
        yield bytes;
      })(),
      { maxBytes: bytes.byteLength },
    );
    if (stored.sha256 !== row.sha256) throw new Error(`Blob ${row.sha256} does not match its bytes (${stored.sha256}); left in the database.`);
    await db.update(blobs).set({ bytes: null }).where(eq(blobs.sha256, row.sha256));
    moved += 1;
  }
}
