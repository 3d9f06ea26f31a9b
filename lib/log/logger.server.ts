/**
 * The server's structured log: JSON lines on stdout (pino). Every entry that concerns a request
 * carries its request id; cookies, keys and authorization headers are never logged (redacted
 * by path as a second line of defence, in case one is passed by mistake), and an error is logged
 * by what names its failure, not by the data it carried (./serialize-error.ts).
 */
import 'server-only';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { logLevel } from '@/lib/config.server';
import { serializeError } from './serialize-error.server';

const globalForLog = globalThis as unknown as { runpadLogger?: Logger };

/** The app's logger configuration, writing to `destination` (stdout when none): tests capture with it. */
export function createLogger(destination?: DestinationStream, level: Level | 'silent' = logLevel()): Logger {
  const options = {
    level,
    base: { service: 'runpad' },
    serializers: { err: serializeError },
    redact: { paths: ['cookie', 'headers.cookie', 'headers.authorization', 'apiKey', '*.apiKey', 'secret'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

export function logger(): Logger {
  globalForLog.runpadLogger ??= createLogger();
  return globalForLog.runpadLogger;
}

export type { Logger };
