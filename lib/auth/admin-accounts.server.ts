/**
 * The admin page's writes on accounts (app/api/admin/...): invite someone, revoke an invitation,
 * approve or refuse a pending sign-up, change a role, block or set limits, make a password-reset
 * link. The routes authorize (admin, same origin) and validate; these decide what is allowed,
 * throw the AppError that refuses in words, and record each action, refused password links too,
 * in the audit list (lib/db/queries/admin-actions.server.ts).
 *
 * A password link is a key to the account: with a mail server it goes to the account's own email
 * only and the admin is told it was sent; without one it is shown to the admin once, and never for
 * an admin or an email on RUNPAD_ADMIN_EMAILS (one admin cannot take over another, nor the owner).
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { getAccount, setRole, type AccountRow } from '@/lib/db/queries/accounts.server';
import { recordAdminAction, type AdminActionKind } from '@/lib/db/queries/admin-actions.server';
import { deletePersonData } from '@/lib/db/queries/delete-account.server';
import { admitAccount, createInvitation, emailsWithOpenInvitation, revokeInvitation, type Invitation } from '@/lib/db/queries/invitations.server';
import { ensureUser, getPerson, updatePerson, type PersonLimits } from '@/lib/db/queries/users.server';
import { authUsers } from '@/lib/db/schema.server';
import { invitationMail, passwordResetMail, sendMail } from '@/lib/email/mailer.server';
import { AppError } from '@/lib/errors.server';
import { isAdmin, isBootstrapAdmin, signInRefusal } from './access.server';
import type { Role } from '@/lib/db/auth-tables.server';
import { emailOnList } from '@/lib/email-list.server';
import type { Auth } from './auth.server';
import { createPasswordResetLink } from './password-reset.server';

/** A link to hand over, and whether it was also mailed (null: no mail server configured). */
export type SentLink = { link: string; expiresAt: string; emailed: boolean | null };

const record = (db: Db, adminId: string, kind: AdminActionKind, account: { id: string | null; email: string | null }) => recordAdminAction(db, { adminId, kind, accountId: account.id, accountEmail: account.email });

export async function inviteSomeone(db: Db, input: { adminId: string; origin: string; email: string; role: Role }): Promise<SentLink & { invitation: Invitation }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
  if (existing) throw new AppError('account:exists', { message: `${email} already has an account here: approve it or change its role in the list of accounts.`, reason: 'invited email has an account' });
  const invitation = await createInvitation(db, { email, role: input.role, createdBy: input.adminId });
  const link = `${input.origin}/sign-in?invitation=${invitation.token}`;
  const emailed = getConfig().email ? await sendMail(invitationMail(email, link, invitation.expiresAt)) : null;
  await record(db, input.adminId, 'invited', { id: null, email });
  const shown: Invitation = { id: invitation.id, email: invitation.email, role: invitation.role, createdAt: invitation.createdAt, expiresAt: invitation.expiresAt };
  return { invitation: shown, link, expiresAt: invitation.expiresAt.toISOString(), emailed };
}

async function accountOrNotFound(db: Db, id: string) {
  const account = await getAccount(db, id);
  if (!account) throw new AppError('account:not_found', { reason: 'no such account' });
  return account;
}

/** Revokes an open invitation: its link stops working. */
export async function revokeInvitationOf(db: Db, input: { adminId: string; id: string }): Promise<void> {
  const email = await revokeInvitation(db, input.id);
  if (email === null) throw new AppError('invitation:not_found', { reason: 'no open invitation' });
  await record(db, input.adminId, 'invitation_revoked', { id: null, email });
}

/** Approves a sign-up waiting in invite mode (admits the account), never one whose email has an open invitation (someone else's, maybe). */
export async function approveSignUp(db: Db, input: { adminId: string; id: string }): Promise<void> {
  const account = await accountOrNotFound(db, input.id);
  if (!signInRefusal(account)) throw new AppError('account:not_pending', { reason: 'approve: not pending' });
  if ((await emailsWithOpenInvitation(db, [account.email])).size > 0) throw new AppError('account:invitation_open', { reason: 'approve: email invited' });
  await admitAccount(db, account.id);
  await ensureUser(db, account.id);
  await record(db, input.adminId, 'approved', account);
}

/** Refuses a sign-up waiting in invite mode: the account is deleted (it could never sign in, so it holds nothing). */
export async function refuseSignUp(db: Db, input: { adminId: string; id: string }): Promise<void> {
  const account = await accountOrNotFound(db, input.id);
  if (!signInRefusal(account)) throw new AppError('account:not_pending', { reason: 'refuse: not pending' });
  await deletePersonData(db, account.id);
  await record(db, input.adminId, 'refused', account);
}

export async function changeRole(db: Db, input: { adminId: string; id: string; role: Role }): Promise<void> {
  const account = await accountOrNotFound(db, input.id);
  if (input.id === input.adminId) throw new AppError('account:own_role', { reason: 'own role' });
  if (isBootstrapAdmin(account) && input.role !== 'admin') throw new AppError('account:role_fixed', { reason: 'bootstrap admin' });
  await setRole(db, input.id, input.role);
  await record(db, input.adminId, input.role === 'admin' ? 'made_admin' : 'made_member', account);
}

/** Blocks or unblocks a person (an account or a guest), or sets their limits (null: the instance's default). */
export async function changePerson(db: Db, input: { adminId: string; id: string; change: { blocked?: boolean; limits?: PersonLimits } }): Promise<void> {
  if (!(await getPerson(db, input.id)) || !(await updatePerson(db, input.id, input.change))) throw new AppError('person:not_found', { reason: 'no such person' });
  const account = await getAccount(db, input.id);
  const whom = { id: input.id, email: account?.email ?? null };
  if (input.change.blocked !== undefined) await record(db, input.adminId, input.change.blocked ? 'blocked' : 'unblocked', whom);
  if (input.change.limits) await record(db, input.adminId, 'limits_changed', whom);
}

/** Whether a password link for this account may be shown to the admin `adminId` (never one that leads to another admin's account or an owner's). */
export function linkMayBeShown(account: AccountRow, adminId: string): boolean {
  if (emailOnList(account.email, getConfig().access.adminEmails)) return false;
  return !isAdmin(account) || account.id === adminId;
}

/**
 * A password link for an account: mailed to its own email only when a mail server is configured
 * (the answer says so, without the link); else shown once, never for an admin or an owner.
 */
export async function passwordResetLink(db: Db, auth: Auth, input: { adminId: string; origin: string; id: string }): Promise<SentLink | { emailed: true }> {
  const account = await accountOrNotFound(db, input.id);
  if (getConfig().email) {
    const { link, expiresAt } = await createPasswordResetLink(auth, input.origin, account.id);
    const sent = await sendMail(passwordResetMail(account.email, link, expiresAt));
    await record(db, input.adminId, sent ? 'password_link_mailed' : 'password_link_not_mailed', account);
    if (!sent) throw new AppError('account:mail_failed', { reason: 'password link not mailed' });
    return { emailed: true };
  }
  if (!linkMayBeShown(account, input.adminId)) {
    await record(db, input.adminId, 'password_link_refused', account);
    throw new AppError('account:link_protected', { reason: 'password link for an admin' });
  }
  const { link, expiresAt } = await createPasswordResetLink(auth, input.origin, account.id);
  await record(db, input.adminId, 'password_link_shown', account);
  return { link, expiresAt: expiresAt.toISOString(), emailed: null };
}
