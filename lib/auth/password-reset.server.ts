/**
 * A password-reset link an admin makes for someone (the admin page): better-auth's own reset
 * token (a `reset-password:<token>` verification value, consumed once by its /reset-password
 * endpoint, which sets the password, adds one to an account that had none, and signs the account
 * out everywhere), made here instead of by the "forgot password" endpoint so that the admin can be
 * shown the link when there is no mail server.
 */
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Auth } from './auth.server';

/** An admin's reset link works this long: it may have to travel by another channel first. */
export const ADMIN_RESET_LINK_MS = 24 * 60 * 60 * 1000;

export async function createPasswordResetLink(auth: Auth, origin: string, userId: string, now = new Date()): Promise<{ link: string; expiresAt: Date }> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + ADMIN_RESET_LINK_MS);
  const context = await auth.$context;
  await context.internalAdapter.createVerificationValue({ identifier: `reset-password:${token}`, value: userId, expiresAt });
  return { link: `${origin}/reset-password?token=${encodeURIComponent(token)}`, expiresAt };
}
