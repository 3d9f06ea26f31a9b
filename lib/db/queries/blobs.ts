import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { blobs, conversationBlobs, conversations, shares } from '../schema';

export type Blob = { sha256: string; mediaType: string; size: number; bytes: Uint8Array };

/** Stores bytes once, addressed by their sha256; returns the hash. */
export async function putBlob(db: Db, input: { bytes: Uint8Array; mediaType: string }): Promise<string> {
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  await db
    .insert(blobs)
    .values({ sha256, mediaType: input.mediaType, size: input.bytes.byteLength, bytes: input.bytes })
    .onConflictDoNothing();
  return sha256;
}

/** Records that a conversation references a blob: that is what grants access to it. */
export async function linkBlob(db: Db, conversationId: string, sha256: string): Promise<void> {
  await db.insert(conversationBlobs).values({ conversationId, sha256 }).onConflictDoNothing();
}

/** Stores bytes and links them to the conversation that produced them, in that order. */
export async function putConversationBlob(db: Db, conversationId: string, input: { bytes: Uint8Array; mediaType: string }): Promise<string> {
  const sha256 = await putBlob(db, input);
  await linkBlob(db, conversationId, sha256);
  return sha256;
}

const blobColumns = { sha256: blobs.sha256, mediaType: blobs.mediaType, size: blobs.size, bytes: blobs.bytes };

export async function getBlobForUser(db: Db, userId: string, sha256: string): Promise<Blob | null> {
  const [row] = await db
    .select(blobColumns)
    .from(blobs)
    .innerJoin(conversationBlobs, eq(conversationBlobs.sha256, blobs.sha256))
    .innerJoin(conversations, eq(conversations.id, conversationBlobs.conversationId))
    .where(and(eq(blobs.sha256, sha256), eq(conversations.ownerId, userId)))
    .limit(1);
  return row ? { ...row, bytes: new Uint8Array(row.bytes) } : null;
}

export async function getBlobForShare(db: Db, shareId: string, sha256: string): Promise<Blob | null> {
  const [row] = await db
    .select(blobColumns)
    .from(blobs)
    .innerJoin(conversationBlobs, eq(conversationBlobs.sha256, blobs.sha256))
    .innerJoin(shares, eq(shares.conversationId, conversationBlobs.conversationId))
    .where(and(eq(blobs.sha256, sha256), eq(shares.id, shareId), isNull(shares.revokedAt)))
    .limit(1);
  return row ? { ...row, bytes: new Uint8Array(row.bytes) } : null;
}
