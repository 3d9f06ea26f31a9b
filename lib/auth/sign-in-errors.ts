/** Sign-in errors better-auth names in the redirect (`?error=CODE`), in words. */
const TEXT: Record<string, string> = {
  not_invited: 'This email is not invited to this Runpad. Ask its operator to add you.',
  blocked: 'This account is blocked on this Runpad.',
  access_denied: 'The sign-in was cancelled at the provider.',
};

export function signInErrorText(code: string): string {
  return TEXT[code.toLowerCase()] ?? `Signing in failed (${code.replace(/[^A-Za-z0-9_ -]/g, '').slice(0, 60)}). Try again.`;
}
