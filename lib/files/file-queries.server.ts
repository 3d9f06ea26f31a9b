import 'server-only';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/lib/db/client.server';
import { conversationBlobs, conversationFiles, conversations, shareFiles, shares } from '@/lib/db/schema.server';
import { withSuffix } from './accept';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { getBlobForUser, linkBlob, unlinkBlobIfUnused } from '@/lib/db/queries/blobs.server';
import type { StorageQuota } from '@/lib/db/queries/quota.server';

import type { DataFileLocation } from './data-file';
import { newestBySha256, type AccountDataset } from './datasets-library';

/**
 * A conversation's dataset as the server records it: `location` says where its bytes are
 * (lib/files/data-file.ts); `salts`, what `sha256` was salted with when it came through a share
 * (lib/security/salted-hash.ts; empty: it is the file's own SHA-256).
 */
export type ConversationFile = { name: string; sha256: string; mediaType: string; size: number; location: DataFileLocation; salts: string[] };
type NewFile = Omit<ConversationFile, 'location' | 'salts'>;

export async function listFiles(db: Db, conversationId: string): Promise<ConversationFile[]> {
  return db
    .select({ name: conversationFiles.name, sha256: conversationFiles.sha256, mediaType: conversationFiles.mediaType, size: conversationFiles.size, location: conversationFiles.location, salts: conversationFiles.hashSalts })
    .from(conversationFiles)
    .where(eq(conversationFiles.conversationId, conversationId))
    .orderBy(asc(conversationFiles.createdAt));
}

/**
 * A conversation's files for a download, to its owner only (empty for anyone else): `blob` is the
 * stored content a download may read, the conversation's own reference to bytes uploaded (or
 * linked from the owner's account) into it. A hash is a name, never a key: a file kept on a
 * device has no blob, whatever its SHA-256 names, and neither has an account file this
 * conversation holds no reference of.
 */
export async function listDownloadFiles(db: Db, userId: string, conversationId: string): Promise<Array<{ name: string; location: DataFileLocation; blob: string | null }>> {
  const rows = await db
    .select({ name: conversationFiles.name, location: conversationFiles.location, blob: conversationBlobs.sha256 })
    .from(conversationFiles)
    .innerJoin(conversations, and(eq(conversations.id, conversationFiles.conversationId), eq(conversations.ownerId, userId)))
    .leftJoin(conversationBlobs, and(eq(conversationBlobs.conversationId, conversationFiles.conversationId), eq(conversationBlobs.sha256, conversationFiles.blobSha256), eq(conversationFiles.location, 'account')))
    .where(eq(conversationFiles.conversationId, conversationId))
    .orderBy(asc(conversationFiles.createdAt));
  return rows;
}

/**
 * Adds a file by name; a name already taken gets " (1)", " (2)"… Returns the final name, or null
 * when the conversation is not the user's. Throws QuotaExceededError, adding nothing.
 */
export async function addFile(db: Db, userId: string, conversationId: string, file: NewFile, quota: StorageQuota): Promise<string | null> {
  if (!(await getConversation(db, userId, conversationId))) return null;
  await linkBlob(db, userId, conversationId, { sha256: file.sha256, mediaType: file.mediaType, size: file.size }, quota);
  return insertNamed(db, conversationId, { ...file, location: 'account', blobSha256: file.sha256 });
}

/**
 * Records a file kept on the person's device: its name, size, type and SHA-256, no bytes and no
 * blob (so it takes none of the account's storage). Named as addFile names. Null when the
 * conversation is not the user's.
 */
export async function addDeviceFile(db: Db, userId: string, conversationId: string, file: NewFile): Promise<string | null> {
  if (!(await getConversation(db, userId, conversationId))) return null;
  return insertNamed(db, conversationId, { ...file, location: 'device', blobSha256: null });
}

async function insertNamed(db: Db, conversationId: string, file: NewFile & { location: DataFileLocation; blobSha256: string | null }): Promise<string> {
  const taken = new Set((await listFiles(db, conversationId)).map((f) => f.name));
  // The insert decides: an upload of the same name that arrived with this one may take a free
  // name between the listing and the insert, and this one then takes the next.
  for (let n = 0; ; n += 1) {
    const name = n === 0 ? file.name : withSuffix(file.name, n);
    if (taken.has(name)) continue;
    const [added] = await db
      .insert(conversationFiles)
      .values({ conversationId, name, sha256: file.sha256, location: file.location, blobSha256: file.blobSha256, mediaType: file.mediaType, size: file.size })
      .onConflictDoNothing()
      .returning({ name: conversationFiles.name });
    if (added) return added.name;
  }
}

/**
 * Deletes a file: from the conversation, from every share of it (a link made earlier no longer
 * serves it), and its blob reference unless a message still shows the same bytes. Returns the
 * hash of the blob it held (its bytes may now be unreferenced; null for a file kept on a device,
 * which held none), or undefined when there was no such file.
 */
export async function removeFile(db: Db, userId: string, conversationId: string, name: string): Promise<string | null | undefined> {
  if (!(await getConversation(db, userId, conversationId))) return undefined;
  const rows = await db
    .delete(conversationFiles)
    .where(and(eq(conversationFiles.conversationId, conversationId), eq(conversationFiles.name, name)))
    .returning({ blobSha256: conversationFiles.blobSha256 });
  if (rows.length === 0) return undefined;
  const shareIds = db.select({ id: shares.id }).from(shares).where(eq(shares.conversationId, conversationId));
  await db.delete(shareFiles).where(and(inArray(shareFiles.shareId, shareIds), eq(shareFiles.name, name)));
  const blob = rows[0].blobSha256;
  if (blob !== null) await unlinkBlobIfUnused(db, userId, conversationId, blob);
  return blob;
}

/** The files a person keeps in their account, across all their conversations: one entry per SHA-256 (its latest name). */
export async function listAccountFiles(db: Db, userId: string): Promise<AccountDataset[]> {
  const rows = await db
    .select({ name: conversationFiles.name, sha256: conversationFiles.sha256, mediaType: conversationFiles.mediaType, size: conversationFiles.size, addedAt: conversationFiles.createdAt })
    .from(conversationFiles)
    .innerJoin(conversations, eq(conversations.id, conversationFiles.conversationId))
    .where(and(eq(conversations.ownerId, userId), eq(conversationFiles.location, 'account')))
    .orderBy(desc(conversationFiles.createdAt));
  return newestBySha256(rows.map((row) => ({ ...row, addedAt: row.addedAt.getTime() })));
}

/**
 * Adds to a conversation a file already in the person's account (the blob `sha256`, which one of
 * their conversations references), under `name`: no bytes move; the blob is linked and counted
 * against the conversation's quota (throws QuotaExceededError, adding nothing). The final name,
 * or null when the conversation or the blob is not the person's.
 */
export async function addAccountFile(db: Db, userId: string, conversationId: string, file: { sha256: string; name: string }, quota: StorageQuota): Promise<ConversationFile | null> {
  const blob = await getBlobForUser(db, userId, file.sha256);
  if (!blob) return null;
  const added = { name: file.name, sha256: file.sha256, mediaType: blob.mediaType, size: blob.size };
  const name = await addFile(db, userId, conversationId, added, quota);
  return name === null ? null : { ...added, name, location: 'account', salts: [] };
}

export type LocationChange =
  | { kind: 'changed'; file: ConversationFile; /** A blob this conversation no longer holds (its bytes may be unreferenced now). */ released: string | null }
  | { kind: 'not-found' }
  /** To the account: the person has not uploaded these bytes (upload them first). */
  | { kind: 'not-uploaded' };

/**
 * Moves a conversation's file between the person's device and their account, under the same name.
 * To `account`: the bytes must already be a blob the person holds (uploaded); it is linked and
 * counted against the quota (throws QuotaExceededError, changing nothing). To `device`: the
 * record no longer holds the blob, which this conversation releases unless a message shows it.
 */
export async function setFileLocation(db: Db, userId: string, conversationId: string, name: string, location: DataFileLocation, quota: StorageQuota): Promise<LocationChange> {
  if (!(await getConversation(db, userId, conversationId))) return { kind: 'not-found' };
  const [file] = (await listFiles(db, conversationId)).filter((f) => f.name === name);
  if (!file) return { kind: 'not-found' };
  if (file.location === location) return { kind: 'changed', file, released: null };
  const where = and(eq(conversationFiles.conversationId, conversationId), eq(conversationFiles.name, name));
  if (location === 'account') {
    const blob = await getBlobForUser(db, userId, file.sha256);
    if (!blob) return { kind: 'not-uploaded' };
    await linkBlob(db, userId, conversationId, { sha256: file.sha256, mediaType: file.mediaType, size: blob.size }, quota);
    await db.update(conversationFiles).set({ location: 'account', blobSha256: file.sha256 }).where(where);
    return { kind: 'changed', file: { ...file, location: 'account' }, released: null };
  }
  await db.update(conversationFiles).set({ location: 'device', blobSha256: null }).where(where);
  await unlinkBlobIfUnused(db, userId, conversationId, file.sha256);
  return { kind: 'changed', file: { ...file, location: 'device' }, released: file.sha256 };
}
