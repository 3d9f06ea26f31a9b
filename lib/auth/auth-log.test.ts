import { describe, expect, it } from 'vitest';
import { capturedLog } from '@/lib/testing/captured-log';
import { betterAuthLogger } from './auth-log.server';

describe('better-auth’s log lines', () => {
  it('go through the app’s log: structured, its level, an error by its name and message only', () => {
    const { log, lines } = capturedLog();
    const failure = Object.assign(new Error('Failed query: insert into "auth_sessions" values ($1, $2)\nparams: session-token-value,2026-01-01'), { params: ['session-token-value'] });
    betterAuthLogger(log, Buffer.alloc(32)).log?.('error', 'DrizzleQueryError', failure, { token: 'session-token-value' });
    betterAuthLogger(log, Buffer.alloc(32)).log?.('warn', 'a warning about the configuration');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'DrizzleQueryError'],
      [40, 'a warning about the configuration'],
    ]);
    expect(lines[0].err).toMatchObject({ type: 'Error', message: 'Failed query: insert into "auth_sessions" values ($1, $2)' });
    expect(JSON.stringify(lines)).not.toContain('session-token-value');
  });
});
