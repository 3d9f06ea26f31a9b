import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { conversationBlobs, conversationFiles, conversations, messages, shares } from '../schema';
import { getConversation } from './conversations';
import { listMessages, type StoredMessage } from './messages';

export type Share = { id: string; conversationId: string; title: string | null; messages: StoredMessage[]; updatedAt: Date };

/** 128 bits of randomness, URL-safe. */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

export async function getActiveShareByConversation(db: Db, userId: string, conversationId: string): Promise<{ id: string; updatedAt: Date } | null> {
  const [row] = await db
    .select({ id: shares.id, updatedAt: shares.updatedAt })
    .from(shares)
    .where(and(eq(shares.conversationId, conversationId), eq(shares.ownerId, userId), isNull(shares.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** Shares a snapshot of the conversation as it is now; reuses the active link if there is one. */
export async function createOrUpdateShare(db: Db, userId: string, conversationId: string): Promise<string | null> {
  const conversation = await getConversation(db, userId, conversationId);
  if (!conversation) return null;
  const snapshot = await listMessages(db, conversationId);
  const existing = await getActiveShareByConversation(db, userId, conversationId);
  if (existing) {
    await db.update(shares).set({ snapshot, title: conversation.title, updatedAt: sql`now()` }).where(eq(shares.id, existing.id));
    return existing.id;
  }
  const id = newShareId();
  await db.insert(shares).values({ id, conversationId, ownerId: userId, title: conversation.title, snapshot });
  return id;
}

export async function revokeShare(db: Db, userId: string, conversationId: string): Promise<boolean> {
  const rows = await db
    .update(shares)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(shares.conversationId, conversationId), eq(shares.ownerId, userId), isNull(shares.revokedAt)))
    .returning({ id: shares.id });
  return rows.length > 0;
}

export async function getShare(db: Db, id: string): Promise<Share | null> {
  const [row] = await db.select().from(shares).where(and(eq(shares.id, id), isNull(shares.revokedAt))).limit(1);
  if (!row) return null;
  return { id: row.id, conversationId: row.conversationId, title: row.title, messages: row.snapshot as StoredMessage[], updatedAt: row.updatedAt };
}

/** A copy of the shared snapshot owned by userId: messages, files and blob links. */
export async function forkShare(db: Db, userId: string, shareId: string): Promise<string | null> {
  const share = await getShare(db, shareId);
  if (!share) return null;
  return db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    await tx.insert(conversations).values({ id, ownerId: userId, title: share.title ? `${share.title} (fork)` : 'Fork' });
    for (const [seq, message] of share.messages.entries()) {
      await tx.insert(messages).values({ conversationId: id, id: message.id, role: message.role, parts: message.parts, metadata: message.metadata ?? null, seq });
    }
    const links = await tx.select({ sha256: conversationBlobs.sha256 }).from(conversationBlobs).where(eq(conversationBlobs.conversationId, share.conversationId));
    if (links.length > 0) await tx.insert(conversationBlobs).values(links.map((l) => ({ conversationId: id, sha256: l.sha256 })));
    const files = await tx.select().from(conversationFiles).where(eq(conversationFiles.conversationId, share.conversationId));
    if (files.length > 0) await tx.insert(conversationFiles).values(files.map((f) => ({ ...f, conversationId: id, createdAt: undefined })));
    return id;
  });
}
