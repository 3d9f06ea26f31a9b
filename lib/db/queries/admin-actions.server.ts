/**
 * The audit list of what admins did to accounts, invitations and people: the one writer of
 * admin_actions (lib/auth/admin-accounts.server.ts records each action, refused password links
 * too) and its reader for /admin. Who, when, what and whom; never a link or a token.
 */
import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../client.server';
import { adminActions, authUsers } from '../schema.server';

/** What an admin can do to an account, in the words the audit list shows. */
const WORDS = {
  invited: 'invited',
  invitation_revoked: 'revoked the invitation of',
  approved: 'approved',
  refused: 'refused',
  made_admin: 'made admin',
  made_member: 'made member',
  blocked: 'blocked',
  unblocked: 'unblocked',
  limits_changed: 'changed the limits of',
  password_link_mailed: 'mailed a password link to',
  password_link_not_mailed: 'could not mail a password link to',
  password_link_shown: 'showed a password link for',
  password_link_refused: 'was refused a password link for',
} as const;

export type AdminActionKind = keyof typeof WORDS;
export type AdminAction = { id: string; at: Date; adminEmail: string; action: string; accountEmail: string };

/** Records one action of the admin `adminId` on the account `accountId` (its email then: `accountEmail`; null for a guest). */
export async function recordAdminAction(db: Db, input: { adminId: string; kind: AdminActionKind; accountId: string | null; accountEmail: string | null }): Promise<void> {
  const [admin] = await db.select({ email: authUsers.email }).from(authUsers).where(eq(authUsers.id, input.adminId));
  await db.insert(adminActions).values({ id: crypto.randomUUID(), adminId: input.adminId, adminEmail: admin?.email ?? input.adminId, kind: input.kind, accountId: input.accountId, accountEmail: input.accountEmail });
}

/** The newest `limit` actions, newest first. */
export async function listAdminActions(db: Db, limit = 200): Promise<AdminAction[]> {
  const rows = await db.select().from(adminActions).orderBy(desc(adminActions.at)).limit(limit);
  const words: Record<string, string> = WORDS;
  return rows.map((row) => ({ id: row.id, at: row.at, adminEmail: row.adminEmail, action: words[row.kind] ?? row.kind, accountEmail: row.accountEmail ?? 'a guest' }));
}
