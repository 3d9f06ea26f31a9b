/**
 * The server's structured log: JSON lines on stdout (pino). Every entry that concerns a request
 * carries its request id; cookies, keys and authorization headers are never logged (redacted
 * by path as a second line of defence, in case one is passed by mistake).
 */
import pino, { type Logger } from 'pino';
import { logLevel } from '@/lib/config';

const globalForLog = globalThis as unknown as { runpadLogger?: Logger };

export function logger(): Logger {
  globalForLog.runpadLogger ??= pino({
    level: logLevel(),
    base: { service: 'runpad' },
    redact: { paths: ['cookie', 'headers.cookie', 'headers.authorization', 'apiKey', '*.apiKey', 'secret'], censor: '[redacted]' },
  });
  return globalForLog.runpadLogger;
}

export type { Logger };
