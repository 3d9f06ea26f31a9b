/**
 * A guest signs in: everything the guest owns becomes the account's. One transaction moves the
 * conversations (with them their messages, files and output references), the shares and the
 * recorded model usage, adds the guest's storage and usage counters to the account's, and
 * deletes the guest. The guest row is locked first, so of two sign-ins racing with the same
 * guest one moves everything and the other finds no guest and does nothing; running it again is
 * a no-op. Nothing is copied, so nothing can be duplicated. The account may go over its storage quota by what it receives; it
 * then stores nothing more until it is under again.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { authUsers, conversations, shares, users } from '../schema.server';
import { moveUsage } from './usage.server';

export type MergedGuest = { conversations: number; shares: number; storedBytes: number };

export async function mergeGuestIntoAccount(db: Db, guestId: string, accountId: string): Promise<MergedGuest | null> {
  if (guestId === accountId) return null;
  return db.transaction(async (tx) => {
    // The account's row may not exist yet (an account made before its first request).
    await tx.insert(users).values({ id: accountId }).onConflictDoNothing();
    const [guest] = await tx.select().from(users).where(eq(users.id, guestId)).for('update');
    if (!guest) return null;
    // A guest cookie never names an account; if one did, it is not merged away.
    const [account] = await tx.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.id, guestId));
    if (account) return null;
    await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for('update');
    const movedConversations = await tx.update(conversations).set({ ownerId: accountId }).where(eq(conversations.ownerId, guestId)).returning({ id: conversations.id });
    const movedShares = await tx.update(shares).set({ ownerId: accountId }).where(eq(shares.ownerId, guestId)).returning({ id: shares.id });
    await moveUsage(tx, guestId, accountId);
    await tx
      .update(users)
      .set({ storedBytes: sql`${users.storedBytes} + ${guest.storedBytes}`, modelRequests: sql`${users.modelRequests} + ${guest.modelRequests}` })
      .where(eq(users.id, accountId));
    await tx.delete(users).where(eq(users.id, guestId));
    return { conversations: movedConversations.length, shares: movedShares.length, storedBytes: guest.storedBytes };
  });
}
