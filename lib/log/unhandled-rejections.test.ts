import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '@/lib/log/logger.server';
import { captureAppLog } from '@/lib/testing/captured-log';
import { installRejectionLog, logUnhandledRejection } from './unhandled-rejections.server';

const NEXT_LISTENER = Symbol.for('next.unhandledRejectionListener');
const slots = globalThis as unknown as Record<symbol, unknown>;

describe('a rejection no one handled', () => {
  afterEach(() => {
    process.off('unhandledRejection', logUnhandledRejection);
    delete slots[NEXT_LISTENER];
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = undefined;
  });

  it('takes the place of Next’s listener (which prints the reason whole), now and when Next registers again', () => {
    const printsWhole = (reason: unknown) => void reason;
    slots[NEXT_LISTENER] = printsWhole;
    process.on('unhandledRejection', printsWhole);
    installRejectionLog();
    installRejectionLog();
    expect(process.listeners('unhandledRejection')).not.toContain(printsWhole);
    expect(process.listeners('unhandledRejection').filter((l) => l === logUnhandledRejection)).toHaveLength(1);
    // Next registers whatever its slot holds.
    expect(slots[NEXT_LISTENER]).toBe(logUnhandledRejection);
  });

  it('is logged by what names it: a dropped answer’s error without the conversation it carried', () => {
    const lines = captureAppLog();
    const said = `SNTL${crypto.randomUUID()} “quoted” 名前\nnext line`;
    logUnhandledRejection(new APICallError({ message: 'Failed to process successful response', url: 'https://models.example/v1/chat/completions', requestBodyValues: { messages: [{ role: 'user', content: said }] }, statusCode: 200, responseHeaders: { 'x-request-id': 'req_7' }, isRetryable: true, cause: new TypeError('terminated') }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'unhandled rejection', err: { type: 'AI_APICallError', statusCode: 200, requestId: 'req_7', cause: { type: 'TypeError', message: 'terminated' } } });
    expect(JSON.stringify(lines)).not.toContain(said.slice(0, 40));
  });
});
