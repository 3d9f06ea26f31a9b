/**
 * The admin page's view of accounts: who they are, their role, whether they were admitted, and
 * whether they have a password (lib/auth/access.server.ts decides what that means for access).
 */
import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Role } from '@/lib/db/auth-tables.server';
import type { Db } from '../client.server';
import { authAccounts, authUsers } from '../schema.server';

export type AccountRow = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  role: string;
  admittedAt: Date | null;
  createdAt: Date;
  hasPassword: boolean;
};

/** What an AccountRow reads of an account: its row, and whether it has a password. */
function accountColumns() {
  return {
    id: authUsers.id,
    email: authUsers.email,
    name: authUsers.name,
    emailVerified: authUsers.emailVerified,
    role: authUsers.role,
    admittedAt: authUsers.admittedAt,
    createdAt: authUsers.createdAt,
    hasPassword: sql<boolean>`exists (select 1 from ${authAccounts} where ${and(eq(authAccounts.userId, authUsers.id), eq(authAccounts.providerId, 'credential'))})`,
  };
}

/** Every account, oldest first; at most `limit`. */
export async function listAccounts(db: Db, limit = 500): Promise<AccountRow[]> {
  return db
    .select(accountColumns())
    .from(authUsers)
    .orderBy(asc(authUsers.createdAt))
    .limit(limit);
}

export async function getAccount(db: Db, id: string): Promise<AccountRow | null> {
  const [row] = await db
    .select(accountColumns())
    .from(authUsers)
    .where(eq(authUsers.id, id));
  return row ?? null;
}

/** Sets an account's role; false when there is no such account. */
export async function setRole(db: Db, id: string, role: Role): Promise<boolean> {
  const updated = await db.update(authUsers).set({ role, updatedAt: new Date() }).where(eq(authUsers.id, id)).returning({ id: authUsers.id });
  return updated.length > 0;
}

/** Emails of the accounts that could be admins (a role, or a verified email a list may name). */
export async function adminCandidates(db: Db): Promise<Array<{ email: string; emailVerified: boolean; role: string }>> {
  return db
    .select({ email: authUsers.email, emailVerified: authUsers.emailVerified, role: authUsers.role })
    .from(authUsers)
    .where(sql`${authUsers.role} = 'admin' or ${authUsers.emailVerified}`);
}
