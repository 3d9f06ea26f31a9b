/**
 * Share links: an unguessable id for a snapshot of a conversation. A share grants exactly what
 * its snapshot holds — the blobs its messages reference and the files the conversation had —
 * recorded when it is made or updated; nothing added to the conversation later. What a share
 * shows its reader (getShare, listShareFiles, a fork) never holds the SHA-256 of a file whose
 * bytes it does not serve: a file kept on a device, an attachment of a message, are shown salted
 * with the share's own salt (lib/security/salted-hash.ts).
 */
import 'server-only';
import { answerMetadataOf, lastAnswerModel } from '@/lib/messages/answer-metadata';
import { attachmentsOf } from '@/lib/messages/attachment';
import { saltedHash, shareHashSalt } from '@/lib/security/salted-hash';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { conversationBlobs, conversationFiles, conversations, messages, shareBlobs, shareFiles, shares, type ShareAudience } from '../schema.server';
import { getConversation } from './conversations.server';
import { listMessages, parseStoredMessages, type StoredMessage } from './messages.server';
import { reserveStorage, type StorageQuota } from './quota.server';

export type Share = { id: string; conversationId: string; title: string | null; messages: StoredMessage[]; updatedAt: Date; audience: ShareAudience };
export type { ShareAudience };

const BLOB_REF = /blob:([0-9a-f]{64})/g;

/** 128 bits of randomness, URL-safe. */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

/** Every blob a list of messages shows (images, files a run wrote). */
export function referencedBlobs(list: StoredMessage[]): string[] {
  return [...new Set([...JSON.stringify(list.map((m) => m.parts)).matchAll(BLOB_REF)].map((match) => match[1]))];
}

/**
 * Shares a snapshot of the conversation as it is now; reuses the active link if there is one. One
 * statement decides which (an upsert on the one-active-link index): Share pressed twice at once,
 * or in two tabs, updates one link instead of making two.
 */
export async function createOrUpdateShare(db: Db, userId: string, conversationId: string, audience: ShareAudience = 'anyone'): Promise<string | null> {
  const conversation = await getConversation(db, userId, conversationId);
  if (!conversation) return null;
  return db.transaction(async (tx) => {
    const snapshot = await listMessages(tx as unknown as Db, conversationId);
    const [{ id }] = await tx
      .insert(shares)
      .values({ id: newShareId(), conversationId, ownerId: userId, title: conversation.title, snapshot, audience })
      .onConflictDoUpdate({ target: shares.conversationId, targetWhere: isNull(shares.revokedAt), set: { snapshot, title: conversation.title, audience, updatedAt: sql`now()` } })
      .returning({ id: shares.id });
    // What the link grants is recorded afresh: the snapshot's blobs and files as they are now.
    await tx.delete(shareBlobs).where(eq(shareBlobs.shareId, id));
    await tx.delete(shareFiles).where(eq(shareFiles.shareId, id));
    const shas = referencedBlobs(snapshot);
    if (shas.length > 0) {
      const refs = await tx
        .select({ sha256: conversationBlobs.sha256, mediaType: conversationBlobs.mediaType, size: conversationBlobs.size })
        .from(conversationBlobs)
        .where(and(eq(conversationBlobs.conversationId, conversationId), inArray(conversationBlobs.sha256, shas)));
      if (refs.length > 0) await tx.insert(shareBlobs).values(refs.map((ref) => ({ shareId: id, ...ref })));
    }
    const files = await tx
      .select({ name: conversationFiles.name, sha256: conversationFiles.sha256, hashSalts: conversationFiles.hashSalts, location: conversationFiles.location, blobSha256: conversationFiles.blobSha256, mediaType: conversationFiles.mediaType, size: conversationFiles.size })
      .from(conversationFiles)
      .where(eq(conversationFiles.conversationId, conversationId));
    if (files.length > 0) await tx.insert(shareFiles).values(files.map((file) => ({ shareId: id, ...file })));
    return id;
  });
}

export async function revokeShare(db: Db, userId: string, conversationId: string): Promise<boolean> {
  const rows = await db
    .update(shares)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(shares.conversationId, conversationId), eq(shares.ownerId, userId), isNull(shares.revokedAt)))
    .returning({ id: shares.id });
  return rows.length > 0;
}

/** Whom an active link opens for, or null when there is no active link with this id. */
export async function activeShareAudience(db: Db, id: string): Promise<ShareAudience | null> {
  const [row] = await db.select({ audience: shares.audience }).from(shares).where(and(eq(shares.id, id), isNull(shares.revokedAt))).limit(1);
  return row?.audience ?? null;
}

/** The conversation's active link (its id and audience), or null. */
export async function activeShareOf(db: Db, conversationId: string): Promise<{ id: string; audience: ShareAudience } | null> {
  const [row] = await db.select({ id: shares.id, audience: shares.audience }).from(shares).where(and(eq(shares.conversationId, conversationId), isNull(shares.revokedAt))).limit(1);
  return row ?? null;
}

/** An active share as its readers see it: its messages' attachments carry hashes salted with the share's salt. */
export async function getShare(db: Db, id: string): Promise<Share | null> {
  const [row] = await db.select().from(shares).where(and(eq(shares.id, id), isNull(shares.revokedAt))).limit(1);
  if (!row) return null;
  const salt = await shareHashSalt(row.id);
  return { id: row.id, conversationId: row.conversationId, title: row.title, messages: await saltAttachments(parseStoredMessages(snapshotEntries(row.snapshot)), salt), updatedAt: row.updatedAt, audience: row.audience };
}

/** The messages with each attachment's hash salted (the page uses it only to tell attachments apart). */
async function saltAttachments(list: StoredMessage[], salt: string): Promise<StoredMessage[]> {
  return Promise.all(
    list.map(async (message) => {
      const files = attachmentsOf(message.metadata);
      if (files.length === 0) return message;
      const salted = await Promise.all(files.map(async (file) => ({ ...file, sha256: await saltedHash(file.sha256, [salt]) })));
      return { ...message, metadata: { ...(message.metadata as Record<string, unknown>), files: salted } };
    }),
  );
}

/** A snapshot is a JSON list of stored messages; anything else is refused when read back (as each entry is). */
function snapshotEntries(snapshot: unknown): unknown[] {
  if (!Array.isArray(snapshot)) throw new TypeError('a share snapshot is not a list of messages');
  return snapshot;
}

/** A share's file as its reader sees it: a device file's `sha256` is salted with `salts` (lib/security/salted-hash.ts); an uploaded one, whose bytes the share serves, is its own. */
export type SharedFileView = { name: string; sha256: string; salts: string[]; location: 'account' | 'device'; mediaType: string; size: number; blobSha256: string | null };

/** The files a share's snapshot holds, as its reader sees them (the share page, and what a fork gets under /data/). */
export async function listShareFiles(db: Db, shareId: string): Promise<SharedFileView[]> {
  const rows = await db
    .select({ name: shareFiles.name, sha256: shareFiles.sha256, salts: shareFiles.hashSalts, location: shareFiles.location, blobSha256: shareFiles.blobSha256, mediaType: shareFiles.mediaType, size: shareFiles.size })
    .from(shareFiles)
    .where(eq(shareFiles.shareId, shareId));
  const salt = await shareHashSalt(shareId);
  return Promise.all(rows.map(async (row) => (row.location === 'device' ? { ...row, sha256: await saltedHash(row.sha256, [salt]), salts: [...row.salts, salt] } : row)));
}

/**
 * A copy of the shared snapshot owned by userId: its messages, its files and the blobs its
 * messages show — the snapshot's, not the conversation's current ones. Counted against the new
 * owner's quota (throws QuotaExceededError, creating nothing).
 */
export async function forkShare(db: Db, userId: string, shareId: string, quota: StorageQuota): Promise<string | null> {
  const share = await getShare(db, shareId);
  if (!share) return null;
  return db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    // The fork keeps the model of the snapshot's last answer (a model no longer offered falls back to the default).
    const modelId = lastAnswerModel(share.messages)?.id ?? null;
    // Answers written seeing only the shape of the data keep it so in the fork (lib/ai/model-sees.server.ts).
    const modelSees = share.messages.some((message) => answerMetadataOf(message.metadata).modelSees === 'schema') ? 'schema' : null;
    await tx.insert(conversations).values({ id, ownerId: userId, title: share.title ? `${share.title} (fork)` : 'Fork', modelId, modelSees });
    for (const [seq, message] of share.messages.entries()) {
      await tx.insert(messages).values({ conversationId: id, id: message.id, role: message.role, parts: message.parts, metadata: message.metadata ?? null, seq });
    }
    const granted = await tx.select({ sha256: shareBlobs.sha256, mediaType: shareBlobs.mediaType, size: shareBlobs.size }).from(shareBlobs).where(eq(shareBlobs.shareId, shareId));
    // As the reader saw them: a device file keeps the salted value and its salts, so a dropped file is still checked.
    const files = (await listShareFiles(tx as unknown as Db, shareId)).map(({ salts, ...file }) => ({ ...file, hashSalts: salts }));
    const links = new Map(granted.map((ref) => [ref.sha256, ref]));
    // A file kept on the owner's device has no blob: the fork lists it, and its reader drops the same file to use it.
    for (const file of files) if (file.location === 'account' && !links.has(file.sha256)) links.set(file.sha256, file);
    if (links.size > 0) await tx.insert(conversationBlobs).values([...links.values()].map((ref) => ({ conversationId: id, sha256: ref.sha256, mediaType: ref.mediaType, size: ref.size })));
    if (files.length > 0) await tx.insert(conversationFiles).values(files.map((file) => ({ conversationId: id, ...file })));
    await reserveStorage(tx, userId, id, [...links.values()].reduce((sum, ref) => sum + ref.size, 0), quota);
    return id;
  });
}

/** A file a copy gets under /data besides the conversation's own uploads: an uploaded dataset of its project its reader may read. */
export type CopiedDataset = { name: string; sha256: string; mediaType: string; size: number };

/**
 * "Continue in my own chat" for a conversation shared to `userId` to read (the caller asked the
 * one rule, lib/access/authorize.server.ts): a copy owned by them, outside any project, of its
 * messages as they are now, the files uploaded to it, the blobs its messages show, and `datasets`
 * (its project's uploaded datasets the reader may read, as files of the copy's own; a file of the
 * conversation's own by the same name comes first). A file kept on its author's device is not the
 * reader's to see: left out, as on the reader's page. What the model sees stays as strict as in the
 * conversation. Counted against the new owner's quota (throws QuotaExceededError, creating
 * nothing); null when the conversation is gone.
 */
export async function copyConversation(db: Db, userId: string, conversationId: string, datasets: readonly CopiedDataset[], quota: StorageQuota): Promise<string | null> {
  const [source] = await db.select({ title: conversations.title, modelId: conversations.modelId, modelSees: conversations.modelSees }).from(conversations).where(eq(conversations.id, conversationId)).limit(1);
  if (!source) return null;
  return db.transaction(async (tx) => {
    const list = await listMessages(tx as unknown as Db, conversationId);
    const id = crypto.randomUUID();
    const modelId = lastAnswerModel(list)?.id ?? source.modelId;
    const modelSees = source.modelSees === 'schema' || list.some((message) => answerMetadataOf(message.metadata).modelSees === 'schema') ? 'schema' : source.modelSees;
    await tx.insert(conversations).values({ id, ownerId: userId, title: source.title ? `${source.title} (copy)` : 'Copy', modelId, modelSees });
    for (const [seq, message] of list.entries()) {
      await tx.insert(messages).values({ conversationId: id, id: message.id, role: message.role, parts: message.parts, metadata: message.metadata ?? null, seq });
    }
    const shown = referencedBlobs(list);
    const refs = shown.length === 0 ? [] : await tx.select({ sha256: conversationBlobs.sha256, mediaType: conversationBlobs.mediaType, size: conversationBlobs.size }).from(conversationBlobs).where(and(eq(conversationBlobs.conversationId, conversationId), inArray(conversationBlobs.sha256, shown)));
    const own = await tx
      .select({ name: conversationFiles.name, sha256: conversationFiles.sha256, hashSalts: conversationFiles.hashSalts, location: conversationFiles.location, blobSha256: conversationFiles.blobSha256, mediaType: conversationFiles.mediaType, size: conversationFiles.size })
      .from(conversationFiles)
      .where(and(eq(conversationFiles.conversationId, conversationId), eq(conversationFiles.location, 'account')));
    const fromProject = datasets.filter((file) => !own.some((other) => other.name === file.name)).map((file) => ({ ...file, hashSalts: [], location: 'account' as const, blobSha256: file.sha256 }));
    const files = [...own, ...fromProject];
    const links = new Map(refs.map((ref) => [ref.sha256, ref]));
    for (const file of files) if (!links.has(file.sha256)) links.set(file.sha256, { sha256: file.sha256, mediaType: file.mediaType, size: file.size });
    if (links.size > 0) await tx.insert(conversationBlobs).values([...links.values()].map((ref) => ({ conversationId: id, ...ref })));
    if (files.length > 0) await tx.insert(conversationFiles).values(files.map((file) => ({ conversationId: id, ...file })));
    await reserveStorage(tx, userId, id, [...links.values()].reduce((sum, ref) => sum + ref.size, 0), quota);
    return id;
  });
}
