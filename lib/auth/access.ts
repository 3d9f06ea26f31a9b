/**
 * Who may hold an account here and who administers it, from lib/config.ts's access settings.
 * In 'invite' mode (and for admins) an email counts only when the provider says it verified it.
 */
import 'server-only';
import { getConfig } from '@/lib/config';
import { emailOnList } from './email-list';

export type AccountEmail = { email: string; emailVerified: boolean };

/** Null when this email may sign in, else what the person reads. */
export function signInRefusal(account: AccountEmail): string | null {
  const { access } = getConfig();
  if (access.mode !== 'invite') return null;
  if (account.emailVerified && emailOnList(account.email, access.allowedEmails)) return null;
  return `${account.email} is not invited to this Runpad. Ask its operator to add you.`;
}

export function isAdmin(account: AccountEmail): boolean {
  return account.emailVerified && emailOnList(account.email, getConfig().access.adminEmails);
}
