/**
 * better-auth's own log lines (an endpoint's unexpected failure among them) written through ours:
 * JSON lines with the same error serializer, not its console lines, which print an error whole
 * (a failed session insert's message holds the session's token among Drizzle's parameters).
 * Its messages quote what a caller sent: a refused callback, redirect or error URL and a refused
 * `Origin` ("Invalid callbackURL: <what the caller wrote>", "If it's a valid URL, please add <it>
 * to trustedOrigins…"), and emails ("Sign-up attempt for existing email: …"). A message is
 * logged as its own words only, those before the first value it quotes (a `: ` or
 * `please add`), its first line; an email in it as its keyed fingerprint
 * (lib/log/fingerprint.server.ts).
 */
import 'server-only';
import type { Logger as BetterAuthLogger } from 'better-auth';
import type { Logger } from '@/lib/log/logger.server';
import { emailsIn, emailFingerprint } from '@/lib/log/fingerprint.server';

/** Where a better-auth message starts quoting a value. */
const QUOTE_STARTS = /: |,? please add |\r|\n/;

/** A better-auth message as it may be logged: its words before any value, and the fingerprints of the emails it held. */
export function ownWords(message: string, fingerprintKey: Buffer): string {
  const cut = message.search(QUOTE_STARTS);
  const head = (cut === -1 ? message : message.slice(0, cut)).slice(0, 200);
  const emails = emailsIn(message).map((email) => emailFingerprint(email, fingerprintKey));
  return emails.length > 0 ? `${head}: ${emails.join(', ')}` : head;
}

export function betterAuthLogger(log: Logger, fingerprintKey: Buffer): BetterAuthLogger {
  return {
    level: 'info',
    log: (level, message, ...args: unknown[]) => {
      // Its other arguments are whatever it was handling; only an error names a failure.
      const err = args.find((arg) => arg instanceof Error);
      log[level](err ? { err } : {}, ownWords(message, fingerprintKey));
    },
  };
}
