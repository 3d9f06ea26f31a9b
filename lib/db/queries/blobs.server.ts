/**
 * Content-addressed bytes and the references that grant access to them. A blob is reachable
 * only through a reference: a conversation's (to its owner), a share's (to anyone with the
 * link) or a project's dataset (to its members, lib/files/project-files.server.ts). The media type lives on the reference, so the same bytes uploaded as CSV by one guest
 * and as HTML by another are each served as their own owner said.
 */
import 'server-only';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import type { Db } from '../client.server';
import { blobs, conversationBlobs, conversations, shareBlobs, shareFiles, shares } from '../schema.server';
import { releaseStorage, reserveStorage, type StorageQuota } from './quota.server';

/** A reference to stored content: what it is for this reference's owner, and how big. */
export type BlobRef = { sha256: string; mediaType: string; size: number };

/** Records content the blob store now holds (once per content). */
export async function recordBlob(db: Db, blob: { sha256: string; size: number }): Promise<void> {
  await db.insert(blobs).values(blob).onConflictDoNothing();
}

/** Stores bytes held in memory (small ones: images of a run) and records them; returns the hash. */
export async function putBlob(db: Db, store: BlobStore, bytes: Uint8Array): Promise<string> {
  const stored = await store.put(
    (async function* () {
      yield bytes;
    })(),
    { maxBytes: bytes.byteLength },
  );
  await recordBlob(db, stored);
  return stored.sha256;
}

/**
 * Records that a conversation references a blob (that is what grants access to it), counting
 * its size against the quotas the first time. Throws QuotaExceededError, linking nothing.
 */
export async function linkBlob(db: Db, ownerId: string, conversationId: string, ref: BlobRef, quota: StorageQuota): Promise<void> {
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(conversationBlobs)
      .values({ conversationId, sha256: ref.sha256, mediaType: ref.mediaType, size: ref.size })
      .onConflictDoNothing()
      .returning({ sha256: conversationBlobs.sha256 });
    if (inserted.length > 0) await reserveStorage(tx, ownerId, conversationId, ref.size, quota);
  });
}

/** Stores bytes and links them to the conversation that produced them; refused bytes are not kept. */
export async function putConversationBlob(
  db: Db,
  store: BlobStore,
  owner: { userId: string; conversationId: string; quota: StorageQuota },
  input: { bytes: Uint8Array; mediaType: string },
): Promise<string> {
  const sha256 = await putBlob(db, store, input.bytes);
  try {
    await linkBlob(db, owner.userId, owner.conversationId, { sha256, mediaType: input.mediaType, size: input.bytes.byteLength }, owner.quota);
  } catch (error) {
    await deleteBlobIfUnreferenced(db, store, sha256);
    throw error;
  }
  return sha256;
}

/** Removes a conversation's reference unless its messages still show the blob; releases its bytes. */
export async function unlinkBlobIfUnused(db: Db, ownerId: string, conversationId: string, sha256: string): Promise<void> {
  await db.transaction(async (tx) => {
    const stillShown = await tx.execute(
      sql`select 1 from messages where conversation_id = ${conversationId} and position(${`blob:${sha256}`} in parts::text) > 0 limit 1`,
    );
    if (rowCount(stillShown) > 0) return;
    const stillFile = await tx.execute(sql`select 1 from conversation_files where conversation_id = ${conversationId} and blob_sha256 = ${sha256} limit 1`);
    if (rowCount(stillFile) > 0) return;
    const removed = await tx
      .delete(conversationBlobs)
      .where(and(eq(conversationBlobs.conversationId, conversationId), eq(conversationBlobs.sha256, sha256)))
      .returning({ size: conversationBlobs.size });
    if (removed[0]) await releaseStorage(tx, ownerId, conversationId, removed[0].size);
  });
}

function rowCount(result: unknown): number {
  // postgres-js returns an array of rows; PGlite returns { rows }.
  if (Array.isArray(result)) return result.length;
  return (result as { rows?: unknown[] }).rows?.length ?? 0;
}

/** The user's reference to a blob (through any conversation they own), or null. */
export async function getBlobForUser(db: Db, userId: string, sha256: string): Promise<BlobRef | null> {
  return (await getBlobsForUser(db, userId, [sha256])).get(sha256) ?? null;
}

/** The user's references to several blobs in one query (through any conversation they own), by digest. */
export async function getBlobsForUser(db: Db, userId: string, sha256s: readonly string[]): Promise<Map<string, BlobRef>> {
  if (sha256s.length === 0) return new Map();
  const rows = await db
    .select({ sha256: conversationBlobs.sha256, mediaType: conversationBlobs.mediaType, size: conversationBlobs.size })
    .from(conversationBlobs)
    .innerJoin(conversations, eq(conversations.id, conversationBlobs.conversationId))
    .where(and(inArray(conversationBlobs.sha256, [...new Set(sha256s)]), eq(conversations.ownerId, userId)));
  // One blob may be referenced by several of the user's conversations: the first reference is it.
  const found = new Map<string, BlobRef>();
  for (const row of rows) if (!found.has(row.sha256)) found.set(row.sha256, row);
  return found;
}

/** The conversation's own reference to a blob, or null (whoever asks was authorized by the caller). */
export async function getBlobForConversation(db: Db, conversationId: string, sha256: string): Promise<BlobRef | null> {
  const [row] = await db
    .select({ sha256: conversationBlobs.sha256, mediaType: conversationBlobs.mediaType, size: conversationBlobs.size })
    .from(conversationBlobs)
    .where(and(eq(conversationBlobs.conversationId, conversationId), eq(conversationBlobs.sha256, sha256)))
    .limit(1);
  return row ?? null;
}

/** Through an active share: only what its snapshot recorded (messages' blobs and its files). */
export async function getBlobForShare(db: Db, shareId: string, sha256: string): Promise<BlobRef | null> {
  const active = and(eq(shares.id, shareId), isNull(shares.revokedAt));
  const [granted] = await db
    .select({ mediaType: shareBlobs.mediaType, size: shareBlobs.size })
    .from(shareBlobs)
    .innerJoin(shares, eq(shares.id, shareBlobs.shareId))
    .where(and(active, eq(shareBlobs.sha256, sha256)))
    .limit(1);
  const [file] = granted
    ? [granted]
    : await db
        .select({ mediaType: shareFiles.mediaType, size: shareFiles.size })
        .from(shareFiles)
        .innerJoin(shares, eq(shares.id, shareFiles.shareId))
        .where(and(active, eq(shareFiles.blobSha256, sha256)))
        .limit(1);
  return file ? { sha256, ...file } : null;
}

/** Drops content no conversation, share or project references any more (after a refused or undone store). */
export async function deleteBlobIfUnreferenced(db: Db, store: BlobStore, sha256: string): Promise<void> {
  const deleted = await db.execute(
    sql`delete from blobs where sha256 = ${sha256}
      and not exists (select 1 from conversation_blobs where sha256 = ${sha256})
      and not exists (select 1 from conversation_files where blob_sha256 = ${sha256})
      and not exists (select 1 from share_blobs where sha256 = ${sha256})
      and not exists (select 1 from share_files where blob_sha256 = ${sha256})
      and not exists (select 1 from project_files where blob_sha256 = ${sha256})
      returning sha256`,
  );
  if (rowCount(deleted) > 0) await store.delete(sha256);
}
