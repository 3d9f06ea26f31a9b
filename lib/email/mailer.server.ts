/**
 * Mail for invitations and password-reset links, through the SMTP server RUNPAD_SMTP_URL names
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
