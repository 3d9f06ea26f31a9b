/** What a person whose sign-up waits in invite mode reads (lib/auth/access.server.ts refuses their session with it). */
export const PENDING_APPROVAL = 'Your account is waiting for an admin of this Runpad to approve it. You can sign in once they have.';

/** Sign-in errors better-auth names in the redirect (`?error=CODE`), in words. */
const TEXT: Record<string, string> = {
  not_invited: 'This email is not invited to this Runpad. Ask its operator to add you.',
  blocked: 'This account is blocked on this Runpad.',
  pending_approval: PENDING_APPROVAL,
  account_not_linked: 'An account with this email was made here with a password, and its email was never verified, so the provider cannot sign in to it. Sign in with its password, or ask an admin for a password link.',
  invalid_token: 'This link does not work any more: it was used or has expired. Ask for a new one.',
  token_expired: 'This link has expired. Ask for a new one.',
  access_denied: 'The sign-in was cancelled at the provider.',
};

export function signInErrorText(code: string): string {
  return TEXT[code.toLowerCase()] ?? `Signing in failed (${code.replace(/[^A-Za-z0-9_ -]/g, '').slice(0, 60)}). Try again.`;
}
