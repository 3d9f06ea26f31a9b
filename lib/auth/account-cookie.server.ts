/**
 * The account session cookie's names (better-auth writes it; lib/auth/auth.server.ts sets the prefix).
 * Over HTTPS `__Host-` prefixed like the guest cookie; proxy.ts only checks whether it is present.
 */
import 'server-only';
export function accountCookiePrefix(secure: boolean): string {
  return secure ? '__Host-runpad' : 'runpad';
}

export function accountCookieName(secure: boolean): string {
  return `${accountCookiePrefix(secure)}.session_token`;
}
