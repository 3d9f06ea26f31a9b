/**
 * Who may hold an account here and who administers it, from lib/config.server.ts's access settings and
 * the account's own row (its role and whether it was admitted, set on /admin or by an invitation).
 * An email counts against RUNPAD_ALLOWED_EMAILS and RUNPAD_ADMIN_EMAILS only when it is verified:
 * by the provider, by an invitation link, or (for the first admin) lib/auth/auth.server.ts.
 */
import 'server-only';
import { getConfig, type AppConfig } from '@/lib/config.server';
import { emailOnList } from '@/lib/email-list.server';
import { PENDING_APPROVAL } from './sign-in-errors';

export type AccountEmail = { email: string; emailVerified: boolean };
/** What the access rules read of an account (auth_users); role and admission are optional for callers that only know the email. */
export type AccountAccess = AccountEmail & { role?: string | null; admittedAt?: Date | string | null };

type Access = Pick<AppConfig['access'], 'mode' | 'allowedEmails' | 'adminEmails'>;

export { PENDING_APPROVAL };

/** Whether the account may use an invite-only Runpad: admitted, or a verified email on one of the lists. */
export function isAdmitted(account: AccountAccess, access: Access = getConfig().access): boolean {
  if (account.admittedAt || account.role === 'admin') return true;
  return account.emailVerified && (emailOnList(account.email, access.allowedEmails) || emailOnList(account.email, access.adminEmails));
}

/** Null when this account may sign in, else what the person reads. */
export function signInRefusal(account: AccountAccess, access: Access = getConfig().access): string | null {
  if (access.mode !== 'invite' || isAdmitted(account, access)) return null;
  return PENDING_APPROVAL;
}

/** A bootstrap admin (RUNPAD_ADMIN_EMAILS, verified email): an admin whatever the role column says. */
export function isBootstrapAdmin(account: AccountEmail, access: Pick<Access, 'adminEmails'> = getConfig().access): boolean {
  return account.emailVerified && emailOnList(account.email, access.adminEmails);
}

export function isAdmin(account: AccountAccess, access: Pick<Access, 'adminEmails'> = getConfig().access): boolean {
  return account.role === 'admin' || isBootstrapAdmin(account, access);
}
