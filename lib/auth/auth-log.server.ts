/**
 * better-auth's own log lines (an endpoint's unexpected failure among them) written through ours:
 * JSON lines with the same error serializer, not its console lines, which print an error whole
 * (a failed session insert's message holds the session's token among Drizzle's parameters). Its
 * messages quote emails ("Sign-up attempt for existing email: …"): each is logged as its keyed
 * fingerprint (lib/log/fingerprint.server.ts).
 */
import 'server-only';
import type { Logger as BetterAuthLogger } from 'better-auth';
import type { Logger } from '@/lib/log/logger.server';
import { withEmailsFingerprinted } from '@/lib/log/fingerprint.server';

export function betterAuthLogger(log: Logger, fingerprintKey: Buffer): BetterAuthLogger {
  return {
    level: 'info',
    log: (level, message, ...args: unknown[]) => {
      // Its other arguments are whatever it was handling; only an error names a failure.
      const err = args.find((arg) => arg instanceof Error);
      log[level](err ? { err } : {}, withEmailsFingerprinted(message, fingerprintKey));
    },
  };
}
