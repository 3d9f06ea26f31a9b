import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError } from 'ai';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import type { Db } from '@/lib/db/client.server';
import { capturedLog } from '@/lib/testing/captured-log';

describe('an error in the log names its failure, not the data it carried', () => {
  it('a model provider’s failure: no request body (the conversation), no response headers, no query string', () => {
    const { log, lines } = capturedLog();
    const failure = new APICallError({
      message: 'The server had an error',
      url: 'https://models.example/v1/chat/completions?key=query-string-key',
      requestBodyValues: { messages: [{ role: 'user', content: 'my salary is 123456' }] },
      statusCode: 500,
      responseHeaders: { 'set-cookie': 'provider-session=cookie-value' },
      responseBody: '{"error":"echoing my salary is 123456"}',
      isRetryable: true,
    });
    log.error({ err: failure, cause: 'provider' }, 'model request failed');
    const written = JSON.stringify(lines);
    for (const carried of ['123456', 'cookie-value', 'query-string-key']) expect(written).not.toContain(carried);
    // A provider's message is its own words (it can quote the prompt): the error is named by its type and status.
    expect(lines[0].err).toMatchObject({ type: 'AI_APICallError', message: 'the provider answered with an error', statusCode: 500, isRetryable: true, url: 'https://models.example/v1/chat/completions' });
    expect((lines[0].err as { stack: string }).stack).toMatch(/^AI_APICallError: the provider answered with an error\n\s+at /);
  });

  it('a cause chain is kept to a bounded depth, each link by its own name and message', () => {
    const { log, lines } = capturedLog();
    let error: Error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', secretField: 'not-this' });
    for (let i = 0; i < 10; i++) error = new Error(`layer ${i}`, { cause: error });
    log.warn({ err: error }, 'failed');
    const logged = lines[0].err as Record<string, unknown>;
    expect(logged.message).toBe('layer 9');
    let depth = 0;
    for (let link = logged; link.cause; link = link.cause as Record<string, unknown>) depth += 1;
    expect(depth).toBe(4);
    expect(JSON.stringify(lines)).not.toContain('not-this');
  });

  it('a message, at any depth of the chain, keeps its first line and never the body or value it quotes', () => {
    const { log, lines } = capturedLog();
    const body = 'data: {"choices":[{"delta":{"content":"Title for ID 7301-552-981"}}]}\n\ndata: [DONE]\n\n';
    const parse = (() => {
      try {
        JSON.parse(body);
      } catch (syntax) {
        return new JSONParseError({ text: body, cause: syntax });
      }
      throw new Error('unreachable');
    })();
    const validation = new TypeValidationError({ value: { title: 'Salary 123456 for Jo' }, cause: parse });
    const invalid = new InvalidResponseDataError({ data: { echoed: 'passport X99887766' }, message: `Invalid response data: ${JSON.stringify({ echoed: 'passport X99887766' })}.` });
    const chain = new Error('title failed', { cause: new Error('wrapped', { cause: validation }) });
    log.warn({ err: chain }, 'failed');
    log.warn({ err: invalid }, 'failed');
    log.warn({ err: new Error(`first line\n${'second line with 7301-552-981'}`) }, 'failed');
    log.warn({ err: new Error('x'.repeat(5_000)) }, 'failed');
    const written = JSON.stringify(lines);
    for (const carried of ['7301-552-981', '123456', 'X99887766', 'Title for ID', 'choices']) expect(written).not.toContain(carried);
    const messages: string[] = [];
    for (let link = lines[0].err as { message: string; cause?: unknown } | undefined; link; link = link.cause as typeof link) messages.push(link.message);
    // The AI SDK's errors are a provider's or a model's words: never logged; the SDK's own kin are cut where they quote.
    expect(messages).toEqual(['title failed', 'wrapped', '[not logged]', '[not logged]', expect.stringMatching(/^Unexpected token .*\[not logged\] is not valid JSON$/)]);
    expect((lines[1].err as { message: string }).message).toBe('[not logged]');
    expect((lines[2].err as { message: string }).message).toBe('first line');
    expect((lines[3].err as { message: string }).message.length).toBeLessThan(600);
  });

  it('a thrown object or string that is not an Error is named by its kind, not by its contents (a provider’s stream error can be either)', () => {
    const { log, lines } = capturedLog();
    log.warn({ err: { token: 'session-token-value' } }, 'failed');
    log.warn({ err: 'plain words' }, 'failed');
    log.warn({ err: 42 }, 'failed');
    expect(JSON.stringify(lines)).not.toContain('session-token-value');
    expect(lines.map((l) => l.err)).toEqual([
      { type: 'object', message: '[Object]' },
      { type: 'string', message: '[11 characters not logged]' },
      { type: 'number', message: '42' },
    ]);
  });

  for (const backend of [pgliteBackend(), serverBackend()]) {
    describe(backend.name, () => {
      let db: Db;
      const live = openForTests(backend, [], (opened) => (db = opened.db));

      live('a failed query: its SQL and SQLSTATE, never its parameters (in the message, the stack or the details)', async () => {
        await db.execute(sql`create table logged_tokens (token text primary key)`);
        const token = `session-token-${crypto.randomUUID()}`;
        await db.execute(sql`insert into logged_tokens values (${token})`);
        const failure = await db.execute(sql`insert into logged_tokens values (${token})`).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(Error);
        const { log, lines } = capturedLog();
        log.warn({ err: failure }, 'database write failed');
        expect(JSON.stringify(lines)).not.toContain(token);
        const logged = lines[0].err as { message: string; cause?: { code?: string; constraint_name?: string; constraint?: string } };
        expect(logged.message).toContain('insert into logged_tokens values ($1)');
        expect(logged.cause?.code).toBe('23505');
        expect(logged.cause?.constraint_name ?? logged.cause?.constraint).toBe('logged_tokens_pkey');
      });
    });
  }
});
