/**
 * Mail for invitations (to this Runpad, to a project) and password-reset links, through the SMTP server RUNPAD_SMTP_URL names
 * (nodemailer). Without one nothing is sent: the admin page shows each link to copy instead.
 * A failure is logged by what names it (never the address or the link) and reported to the caller,
 * which still shows the link.
 */
import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { getConfig, type AppConfig } from '@/lib/config.server';
import { logger } from '@/lib/log/logger.server';

export type Mail = { to: string; subject: string; text: string };

const transports = new Map<string, Transporter>();

function transport(smtpUrl: string): Transporter {
  let known = transports.get(smtpUrl);
  if (!known) {
    known = nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, known);
  }
  return known;
}

/** Whether mail can be sent at all (RUNPAD_SMTP_URL set). */
export function canSendMail(settings: AppConfig['email'] = getConfig().email): boolean {
  return settings !== null;
}

/** Sends one mail; true when the server accepted it, false when there is no server or it refused. */
export async function sendMail(mail: Mail, settings: AppConfig['email'] = getConfig().email): Promise<boolean> {
  if (!settings) return false;
  try {
    // The address as an object: nodemailer would parse a string, and a quoted part would change who gets the mail.
    await transport(settings.smtpUrl).sendMail({ from: settings.from, to: { name: '', address: mail.to }, subject: mail.subject, text: mail.text });
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    logger().error({ component: 'email', code: typeof code === 'string' ? code : undefined, subject: mail.subject }, 'sending mail failed');
    return false;
  }
}

export function invitationMail(to: string, link: string, expiresAt: Date): Mail {
  return {
    to,
    subject: 'You are invited to Runpad',
    text: `You are invited to Runpad.\n\nOpen this link to make your account (it works once, until ${expiresAt.toUTCString()}):\n${link}\n`,
  };
}

/** One line of someone's words in a mail: no control characters (a subject stays one header line). */
const oneLine = (text: string, max = 200) => text.replace(/\p{Cc}+/gu, ' ').trim().slice(0, max);

/** An invitation to a project, for an email no account has yet: the project, who invited them, the link to make their account. */
export function projectInvitationMail(to: string, invitation: { project: string; inviter: string; role: 'use' | 'edit'; link: string }): Mail {
  const project = oneLine(invitation.project);
  const inviter = oneLine(invitation.inviter);
  const role = invitation.role === 'edit' ? 'can edit it (its instructions, datasets and members)' : 'can use it (start conversations in it, read its datasets)';
  return {
    to,
    subject: `${inviter} invited you to the project “${project}” on Runpad`,
    text: `${inviter} invited you to the project “${project}” on Runpad: you ${role}.\n\nMake your account with this email (${to}) here, and the project is yours to open:\n${invitation.link}\n\nIf you do not know them, ignore this mail.\n`,
  };
}

export function passwordResetMail(to: string, link: string, expiresAt: Date): Mail {
  return {
    to,
    subject: 'Set your Runpad password',
    text: `Open this link to set a new password for your Runpad account (it works once, until ${expiresAt.toUTCString()}):\n${link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n`,
  };
}

export function verificationMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Confirm your email for Runpad',
    text: `Open this link to confirm that this is your email (it works within a day):\n${link}\n\nIf you did not make a Runpad account, ignore this mail.\n`,
  };
}
