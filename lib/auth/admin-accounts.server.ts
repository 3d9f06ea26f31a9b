/**
 * The admin page's writes on accounts (app/api/admin/...): invite someone, approve or refuse a
 * pending sign-up, change a role, make a password-reset link. The routes authorize (admin, same
 * origin) and validate; these decide what is allowed and throw the AppError that refuses in words.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { getAccount, setRole } from '@/lib/db/queries/accounts.server';
import { deletePersonData } from '@/lib/db/queries/delete-account.server';
import { admitAccount, createInvitation, type Invitation } from '@/lib/db/queries/invitations.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { authUsers } from '@/lib/db/schema.server';
import { invitationMail, passwordResetMail, sendMail } from '@/lib/email/mailer.server';
import { AppError } from '@/lib/errors.server';
import { isBootstrapAdmin, signInRefusal } from './access.server';
import type { Role } from '@/lib/db/auth-tables.server';
import type { Auth } from './auth.server';
import { createPasswordResetLink } from './password-reset.server';

/** A link to hand over, and whether it was also mailed (null: no mail server configured). */
export type SentLink = { link: string; expiresAt: string; emailed: boolean | null };

export async function inviteSomeone(db: Db, input: { adminId: string; origin: string; email: string; role: Role }): Promise<SentLink & { invitation: Invitation }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
  if (existing) throw new AppError('account:exists', { message: `${email} already has an account here: approve it or change its role in the list of accounts.`, reason: 'invited email has an account' });
  const invitation = await createInvitation(db, { email, role: input.role, createdBy: input.adminId });
  const link = `${input.origin}/sign-in?invitation=${invitation.token}`;
  const emailed = getConfig().email ? await sendMail(invitationMail(email, link, invitation.expiresAt)) : null;
  const shown: Invitation = { id: invitation.id, email: invitation.email, role: invitation.role, createdAt: invitation.createdAt, expiresAt: invitation.expiresAt };
  return { invitation: shown, link, expiresAt: invitation.expiresAt.toISOString(), emailed };
}

async function accountOrNotFound(db: Db, id: string) {
  const account = await getAccount(db, id);
  if (!account) throw new AppError('account:not_found', { reason: 'no such account' });
  return account;
}

/** Approves a sign-up waiting in invite mode (admits the account). */
export async function approveSignUp(db: Db, id: string): Promise<void> {
  const account = await accountOrNotFound(db, id);
  if (!signInRefusal(account)) throw new AppError('account:not_pending', { reason: 'approve: not pending' });
  await admitAccount(db, id);
  await ensureUser(db, id);
}

/** Refuses a sign-up waiting in invite mode: the account is deleted (it could never sign in, so it holds nothing). */
export async function refuseSignUp(db: Db, id: string): Promise<void> {
  const account = await accountOrNotFound(db, id);
  if (!signInRefusal(account)) throw new AppError('account:not_pending', { reason: 'refuse: not pending' });
  await deletePersonData(db, id);
}

export async function changeRole(db: Db, input: { adminId: string; id: string; role: Role }): Promise<void> {
  const account = await accountOrNotFound(db, input.id);
  if (input.id === input.adminId) throw new AppError('account:own_role', { reason: 'own role' });
  if (isBootstrapAdmin(account) && input.role !== 'admin') throw new AppError('account:role_fixed', { reason: 'bootstrap admin' });
  await setRole(db, input.id, input.role);
}

export async function passwordResetLink(db: Db, auth: Auth, input: { origin: string; id: string }): Promise<SentLink> {
  const account = await accountOrNotFound(db, input.id);
  const { link, expiresAt } = await createPasswordResetLink(auth, input.origin, account.id);
  const emailed = getConfig().email ? await sendMail(passwordResetMail(account.email, link, expiresAt)) : null;
  return { link, expiresAt: expiresAt.toISOString(), emailed };
}
