/**
 * The admin page's sign-in and access sections (server part): invitations, sign-ups waiting for
 * approval (invite mode; an unverified email marked, no Approve for an email an open invitation
 * names), accounts with their roles and password-reset links. The page renders it
 * with one line; the writes are app/api/admin/invitations and app/api/admin/accounts.
 */
import 'server-only';
import { isBootstrapAdmin, signInRefusal } from '@/lib/auth/access.server';
import { linkMayBeShown } from '@/lib/auth/admin-accounts.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { listAccounts } from '@/lib/db/queries/accounts.server';
import { emailsWithOpenInvitation, listOpenInvitations } from '@/lib/db/queries/invitations.server';
import { AccessAdmin } from './access-admin';

export async function AdminAccess({ currentUserId }: { currentUserId: string }) {
  const config = getConfig();
  const db = await getDb();
  const [accounts, invitations] = await Promise.all([listAccounts(db), listOpenInvitations(db)]);
  const pending = accounts.filter((account) => signInRefusal(account) !== null);
  const waiting = new Set(pending.map((account) => account.id));
  // A sign-up whose email has an open invitation may be someone else's squat: never approved (lib/auth/admin-accounts.server.ts).
  const invited = await emailsWithOpenInvitation(db, pending.map((account) => account.email));
  return (
    <AccessAdmin
      inviteMode={config.access.mode === 'invite'}
      mailConfigured={config.email !== null}
      invitations={invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expiresAt.toISOString() }))}
      pending={pending.map((a) => ({ id: a.id, email: a.email, name: a.name, createdAt: a.createdAt.toISOString(), emailVerified: a.emailVerified, invited: invited.has(a.email.trim().toLowerCase()) }))}
      accounts={accounts
        .filter((a) => !waiting.has(a.id))
        .map((a) => ({ id: a.id, email: a.email, name: a.name, role: a.role === 'admin' || isBootstrapAdmin(a) ? 'admin' : 'member', emailVerified: a.emailVerified, fixed: isBootstrapAdmin(a), self: a.id === currentUserId, hasPassword: a.hasPassword, passwordLink: config.email !== null || linkMayBeShown(a, currentUserId) }))}
    />
  );
}
