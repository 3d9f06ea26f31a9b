/**
 * Invitations (the admin page): a single-use link for one email, valid until it expires. Only the
 * SHA-256 of the link's token is stored, so the table cannot be read back into working links.
 * Using one admits the account it made (auth_users.admitted_at) with the invitation's role.
 */
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Role } from '@/lib/db/auth-tables.server';
import type { Db } from '../client.server';
import { authUsers, invitations } from '../schema.server';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type Invitation = { id: string; email: string; role: Role; createdAt: Date; expiresAt: Date };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const normalEmail = (email: string) => email.trim().toLowerCase();
const asRole = (role: string): Role => (role === 'admin' ? 'admin' : 'member');
const view = (row: typeof invitations.$inferSelect): Invitation => ({ id: row.id, email: row.email, role: asRole(row.role), createdAt: row.createdAt, expiresAt: row.expiresAt });

/** A new invitation and the token of its link (shown once; only its hash is kept). An open one for the same email is replaced. */
export async function createInvitation(db: Db, input: { email: string; role: Role; createdBy: string | null; now?: Date; ttlMs?: number }): Promise<Invitation & { token: string }> {
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const email = normalEmail(input.email);
  const row = await db.transaction(async (tx) => {
    await tx.delete(invitations).where(and(eq(invitations.email, email), isNull(invitations.usedAt)));
    const [inserted] = await tx
      .insert(invitations)
      .values({ id: crypto.randomUUID(), email, role: input.role, tokenHash: hashToken(token), createdBy: input.createdBy, createdAt: now, expiresAt: new Date(now.getTime() + (input.ttlMs ?? INVITATION_TTL_MS)) })
      .returning();
    return inserted;
  });
  return { ...view(row), token };
}

/** Invitations not yet used and not expired, oldest first. */
export async function listOpenInvitations(db: Db, now = new Date()): Promise<Invitation[]> {
  const rows = await db
    .select()
    .from(invitations)
    .where(and(isNull(invitations.usedAt), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt));
  return rows.map(view);
}

/** Revokes an open invitation: its email, or null when there is none with this id (used ones stay as a record). */
export async function revokeInvitation(db: Db, id: string): Promise<string | null> {
  const [deleted] = await db
    .delete(invitations)
    .where(and(eq(invitations.id, id), isNull(invitations.usedAt)))
    .returning({ email: invitations.email });
  return deleted?.email ?? null;
}

/** Emails among these that an open invitation names (normalized as invitations keep them). */
export async function emailsWithOpenInvitation(db: Db, emails: string[], now = new Date()): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: invitations.email })
    .from(invitations)
    .where(and(inArray(invitations.email, emails.map(normalEmail)), isNull(invitations.usedAt), gt(invitations.expiresAt, now)));
  return new Set(rows.map((row) => row.email));
}

/** The open invitation this link's token names, or null (unknown, used, revoked or expired). Reads only. */
export async function findInvitation(db: Db, token: string, now = new Date()): Promise<Invitation | null> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, hashToken(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, now)));
  return row ? view(row) : null;
}

/**
 * Uses an open invitation for this email, once: the one the token names, or (for an email a
 * provider verified, where no link was followed) the open one made for that email. Null when
 * there is none; a second use of the same link finds none.
 */
export async function redeemInvitation(db: Db, input: { email: string; token?: string | null; now?: Date }): Promise<Invitation | null> {
  const now = input.now ?? new Date();
  const named = input.token ? eq(invitations.tokenHash, hashToken(input.token)) : sql`true`;
  const [row] = await db
    .update(invitations)
    .set({ usedAt: now })
    .where(and(named, eq(invitations.email, normalEmail(input.email)), isNull(invitations.usedAt), gt(invitations.expiresAt, now)))
    .returning();
  return row ? view(row) : null;
}

/** Admits an account (an invitation used, or an admin's approval); false when no such account. */
export async function admitAccount(db: Db, userId: string, role?: Role, now = new Date()): Promise<boolean> {
  const updated = await db
    .update(authUsers)
    .set({ admittedAt: now, ...(role ? { role } : {}) })
    .where(eq(authUsers.id, userId))
    .returning({ id: authUsers.id });
  return updated.length > 0;
}
