/**
 * The app's logger (lib/log/logger.server.ts, its serializers and redaction) writing into memory: a test
 * reads the lines it logged as parsed JSON.
 */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@/lib/log/logger.server';

export type LogLine = Record<string, unknown>;

export function capturedLog(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { log: createLogger(sink, 'info'), lines };
}

/** Makes a captured logger the app's own (lib/log/logger.server.ts keeps it on globalThis); its lines. */
export function captureAppLog(): LogLine[] {
  const { log, lines } = capturedLog();
  (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
  return lines;
}
