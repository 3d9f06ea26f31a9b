/**
 * Storage quotas, per conversation and per guest, counted in bytes referenced (uploads and run
 * outputs). A reservation is one conditional UPDATE per counter inside the caller's transaction,
 * so two uploads racing each other cannot both pass a limit: the second UPDATE sees the first's
 * row lock and then its new total.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { conversations, users } from '../schema.server';

export type StorageQuota = { conversationBytes: number; guestBytes: number };

export class QuotaExceededError extends Error {
  constructor(
    readonly scope: 'conversation' | 'project' | 'guest',
    readonly limitBytes: number,
  ) {
    super(`${scope} storage quota exceeded`);
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** Adds `bytes` to both counters or throws QuotaExceededError (the transaction then rolls back). */
export async function reserveStorage(tx: Tx, ownerId: string, conversationId: string, bytes: number, quota: StorageQuota): Promise<void> {
  if (bytes <= 0) return;
  const conversation = await tx
    .update(conversations)
    .set({ storedBytes: sql`${conversations.storedBytes} + ${bytes}` })
    .where(and(eq(conversations.id, conversationId), sql`${conversations.storedBytes} + ${bytes} <= ${quota.conversationBytes}`))
    .returning({ id: conversations.id });
  if (conversation.length === 0) throw new QuotaExceededError('conversation', quota.conversationBytes);
  const guest = await tx
    .update(users)
    .set({ storedBytes: sql`${users.storedBytes} + ${bytes}` })
    // A per-person limit set on the admin page overrides the instance's default.
    .where(and(eq(users.id, ownerId), sql`${users.storedBytes} + ${bytes} <= coalesce(${users.storageBytes}, ${quota.guestBytes})`))
    .returning({ id: users.id });
  if (guest.length === 0) throw new QuotaExceededError('guest', quota.guestBytes);
}

export async function releaseStorage(tx: Tx, ownerId: string, conversationId: string, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  await tx.update(conversations).set({ storedBytes: sql`greatest(${conversations.storedBytes} - ${bytes}, 0)` }).where(eq(conversations.id, conversationId));
  await tx.update(users).set({ storedBytes: sql`greatest(${users.storedBytes} - ${bytes}, 0)` }).where(eq(users.id, ownerId));
}

/**
 * The quota a store of `bytes` would exceed, or null when it fits now: an early, friendly
 * refusal before any byte is read (the reservation afterwards is what counts).
 */
export async function exceededQuota(db: Db, ownerId: string, conversationId: string, bytes: number, quota: StorageQuota): Promise<QuotaExceededError | null> {
  const [row] = await db
    .select({ conversation: conversations.storedBytes, guest: users.storedBytes, guestLimit: users.storageBytes })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.ownerId))
    .where(and(eq(conversations.id, conversationId), eq(conversations.ownerId, ownerId)));
  if (!row) return null;
  if (row.conversation + bytes > quota.conversationBytes) return new QuotaExceededError('conversation', quota.conversationBytes);
  const guestLimit = row.guestLimit ?? quota.guestBytes;
  if (row.guest + bytes > guestLimit) return new QuotaExceededError('guest', guestLimit);
  return null;
}
