/**
 * A project's member added by an email no account has yet (docs/DECISIONS.md, "A project's
 * invitations"), once `authorize` said `manage_members`: a pending membership keyed by the
 * normalised email, which grants nothing until an account with that email signs in (its email
 * verified where this Runpad verifies emails, that is where it can send mail); then it becomes a
 * membership with the role given, and the person sees the project at once.
 *
 * Where the account must first be let in (RUNPAD_ACCESS=invite), only an admin invites an email no
 * account has: an email already let in (an open invitation to this Runpad, or on
 * RUNPAD_ALLOWED_EMAILS / RUNPAD_ADMIN_EMAILS) only waits, any other also gets this Runpad's
 * invitation link. Anyone else is refused in words, whatever the email (so an editor learns
 * nothing of this Runpad's invitations or lists): an admin must invite them to this Runpad first.
 *
 * With a mail server, the person is mailed the project's name, who invited them and the link to
 * make their account; without one nothing is sent and the answer says so (an admin is handed the
 * link to pass on). The inviter learns only what adding an existing account already told them:
 * whether an account has this email.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import type { Db } from '@/lib/db/client.server';
import { getAccount } from '@/lib/db/queries/accounts.server';
import { createInvitation, emailsWithOpenInvitation } from '@/lib/db/queries/invitations.server';
import { claimProjectInvitations, countProjectInvitations, normalisedEmail, putProjectInvitation } from '@/lib/db/queries/project-invitations.server';
import { accountByEmail, getProject, recordShare, type MemberRole } from '@/lib/db/queries/projects.server';
import { projectInvitationMail, sendMail } from '@/lib/email/mailer.server';
import { emailOnList } from '@/lib/email-list.server';
import { AppError } from '@/lib/errors.server';
import { resolveGrantee, type GranteeInput } from './grantee.server';
import { addMember } from './projects.server';

/** At most this many emails wait in one project (each can be mailed). */
export const MAX_PENDING_PER_PROJECT = 200;

export type InvitedMember = {
  id: string;
  status: 'invited';
  email: string;
  role: MemberRole;
  /** Whether the invitation was mailed to them (false: no mail server, or it refused). */
  emailSent: boolean;
  /** This Runpad's invitation link made for them (an admin's invitation on an invite-only Runpad), to hand over when no mail went. */
  link?: string;
  /** What the inviter reads. */
  message: string;
};

/** Whether an account with this email would be let in on an invite-only Runpad without a new invitation. */
async function alreadyLetIn(db: Db, email: string): Promise<boolean> {
  const { allowedEmails, adminEmails } = getConfig().access;
  if (emailOnList(email, allowedEmails) || emailOnList(email, adminEmails)) return true;
  return (await emailsWithOpenInvitation(db, [email])).size > 0;
}

/** The link the mail carries: this Runpad's sign-in page (with its invitation's token when one was made), back to the project after. */
const signUpLink = (origin: string, projectId: string, token: string | null) => `${origin}/sign-in?${token ? `invitation=${token}&` : ''}next=${encodeURIComponent(`/p/${projectId}`)}`;

function invitedMessage(email: string, emailSent: boolean, link: string | null): string {
  const joins = 'they join the project with this role as soon as they make their account with this email';
  if (emailSent) return `No account here has ${email} yet: an invitation was mailed to them, and ${joins}.`;
  if (link) return `No account here has ${email} yet and no email was sent: hand them this invitation link (it works once, for a week): ${link}. ${joins[0]!.toUpperCase()}${joins.slice(1)}.`;
  return `No account here has ${email} yet and no email was sent (this Runpad does not send mail): tell them to make an account here with this email; ${joins}.`;
}

/**
 * Invites an email no account has to the project with `role` (or changes the role of its waiting
 * invitation); the caller authorized `manage_members` and found no account with this email.
 */
export async function inviteToProject(db: Db, inviter: { userId: string; isAdmin: boolean }, input: { projectId: string; email: string; role: MemberRole; origin: () => string }): Promise<InvitedMember> {
  const email = normalisedEmail(input.email);
  const project = await getProject(db, input.projectId);
  if (!project) throw new AppError('project:not_found', { reason: 'project gone' });
  const config = getConfig();
  let token: string | null = null;
  if (config.access.mode === 'invite') {
    if (!inviter.isAdmin) throw new AppError('member:instance_invitation_needed', { reason: 'invite-only: not an admin' });
    if (!(await alreadyLetIn(db, email))) token = (await createInvitation(db, { email, role: 'member', createdBy: inviter.userId })).token;
  }
  if ((await countProjectInvitations(db, project.id)) >= MAX_PENDING_PER_PROJECT) {
    throw new AppError('request:invalid', { message: `${MAX_PENDING_PER_PROJECT} invitations already wait in this project: remove some of them first.`, reason: 'too many pending invitations' });
  }
  const { id } = await putProjectInvitation(db, project.id, email, input.role, inviter.userId);
  await recordShare(db, { actorId: inviter.userId, kind: 'member_invited', projectId: project.id, subjectUserId: null, subjectGroupId: null, subjectEmail: email, role: input.role });
  // Links leave the request only with a mail server or an invitation link to hand over (lib/http/link-origin.server.ts).
  const link = config.email || token ? signUpLink(input.origin(), project.id, token) : null;
  const inviterAccount = await getAccount(db, inviter.userId);
  const inviterName = inviterAccount ? (inviterAccount.name && inviterAccount.name !== inviterAccount.email ? `${inviterAccount.name} (${inviterAccount.email})` : inviterAccount.email) : 'Someone';
  const emailSent = config.email && link ? await sendMail(projectInvitationMail(email, { project: project.name, inviter: inviterName, link, role: input.role })) : false;
  return { id, status: 'invited', email, role: input.role, emailSent, ...(token && link ? { link } : {}), message: invitedMessage(email, emailSent, token ? link : null) };
}

/**
 * Makes the invitations waiting for this account's email its memberships, when its email counts:
 * verified, or on a Runpad that verifies no email (no mail server). Called at each sign-in and
 * when an email is verified (lib/auth/auth.server.ts); nothing happens when none waits.
 */
export async function claimInvitationsOf(db: Db, account: { id: string; email: string; emailVerified: boolean }): Promise<number> {
  if (!account.emailVerified && getConfig().email !== null) return 0;
  const joined = await claimProjectInvitations(db, account.id, account.email);
  for (const row of joined) {
    if (row.invitedBy) await recordShare(db, { actorId: row.invitedBy, kind: 'member_added', projectId: row.projectId, subjectUserId: account.id, subjectGroupId: null, role: row.role });
  }
  return joined.length;
}

/**
 * `POST /api/projects/<id>/members`, once `authorize` said `manage_members`: a group or an
 * account by its email becomes a member (201 `{id}`); an email no account has is invited (201,
 * what `inviteToProject` answers).
 */
export async function addMemberOrInvite(db: Db, inviter: { userId: string; isAdmin: boolean }, input: { projectId: string; named: GranteeInput; role: MemberRole; origin: () => string }): Promise<{ id: string } | InvitedMember> {
  if ('email' in input.named && !(await accountByEmail(db, input.named.email))) {
    return inviteToProject(db, inviter, { projectId: input.projectId, email: input.named.email, role: input.role, origin: input.origin });
  }
  return { id: await addMember(db, inviter.userId, input.projectId, await resolveGrantee(db, input.named), input.role) };
}
