/**
 * What a new account starts with, decided as better-auth makes it (lib/auth/auth.server.ts):
 * - a sign-up that carries an invitation link's token (`invitation` in its body) uses that
 *   invitation: the account is admitted with its role, and its email counts as verified (the link
 *   went to that address, or the admin handed it to that person); a token that is unknown, used,
 *   expired, revoked or made for another email refuses the sign-up in words;
 * - an email a provider verified uses the open invitation made for it, if any;
 * - any other sign-up for an email that has an open invitation is refused in words: only the
 *   invitation's token (or the email's verification, above) makes that account, so no one can
 *   squat an invited email and wait for an admin to approve it;
 * - the first admin: a password sign-up whose email is on RUNPAD_ADMIN_EMAILS, while no account is
 *   an admin yet, counts as verified (so a Runpad with no provider can be administered at all);
 * - anything else starts unadmitted: fine in open and accounts modes, pending in invite mode.
 */
import 'server-only';
import { z } from 'zod';
import type { AppConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { adminCandidates } from '@/lib/db/queries/accounts.server';
import { emailsWithOpenInvitation, redeemInvitation } from '@/lib/db/queries/invitations.server';
import { isAdmin } from './access.server';
import { emailOnList } from '@/lib/email-list.server';

export const INVITATION_WAITING = 'An invitation is waiting for this email: make the account with the link it came with.';
export const INVITATION_INVALID = 'This invitation link does not work any more: it was used, revoked or has expired, or it was made for another email. Ask an admin of this Runpad for a new one.';

const signUpWithInvitation = z.object({ invitation: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const endpoint = z.object({ path: z.string().optional(), body: z.unknown().optional() });

type NewUser = { email: string; emailVerified: boolean };
type Admission = { ok: true; data: { emailVerified?: boolean; role?: string; admittedAt?: Date } } | { ok: false; refusal: string };

export async function admissionOnCreate(db: Db, config: Pick<AppConfig, 'access'>, user: NewUser, context: unknown, now = new Date()): Promise<Admission> {
  const request = endpoint.safeParse(context ?? {});
  const path = request.success ? request.data.path : undefined;
  const body = request.success ? request.data.body : undefined;
  const withToken = signUpWithInvitation.safeParse(body);
  if (body && typeof body === 'object' && 'invitation' in body) {
    const invitation = withToken.success ? await redeemInvitation(db, { email: user.email, token: withToken.data.invitation, now }) : null;
    if (!invitation) return { ok: false, refusal: INVITATION_INVALID };
    return { ok: true, data: { emailVerified: true, role: invitation.role, admittedAt: now } };
  }
  if (user.emailVerified) {
    const invitation = await redeemInvitation(db, { email: user.email, now });
    return { ok: true, data: invitation ? { role: invitation.role, admittedAt: now } : {} };
  }
  if ((await emailsWithOpenInvitation(db, [user.email], now)).size > 0) return { ok: false, refusal: INVITATION_WAITING };
  if (path === '/sign-up/email' && emailOnList(user.email, config.access.adminEmails)) {
    const candidates = await adminCandidates(db);
    if (!candidates.some((account) => isAdmin(account, config.access))) return { ok: true, data: { emailVerified: true } };
  }
  return { ok: true, data: {} };
}
