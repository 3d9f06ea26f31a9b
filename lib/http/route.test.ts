import pino from 'pino';
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError, ERROR_CODES, errorSpec } from '@/lib/errors';
import { QuotaExceededError } from '@/lib/db/queries/quota';
import { BlobTooLargeError } from '@/lib/blobs/blob-store';

vi.mock('server-only', () => ({}));
vi.mock('@/lib/auth/current-user', () => ({ sessionGuestId: async () => 'guest-1' }));
const { route } = await import('./route');
const { toAppError } = await import('./to-app-error');

/** Every log line the route writes, parsed. */
const lines: Array<Record<string, unknown>> = [];
beforeEach(() => {
  lines.length = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  (globalThis as unknown as { runpadLogger?: pino.Logger }).runpadLogger = pino({ level: 'info' }, sink);
});

const get = (handler: () => Promise<Response>) => route(handler)(new Request('http://app.test/api/thing'));

describe('one error from the domain to the page', () => {
  it('every code has an HTTP status, words for the user and a log level', () => {
    for (const code of ERROR_CODES) {
      const spec = errorSpec(code);
      expect(code).toMatch(/^[a-z_]+:[a-z_]+$/);
      expect(spec.status).toBeGreaterThanOrEqual(400);
      expect(spec.message.length).toBeGreaterThan(5);
      expect(['info', 'warn', 'error']).toContain(spec.level);
    }
  });

  it('route() answers a thrown AppError with its status, words and code, and logs it once with its reason', async () => {
    const response = await get(async () => {
      throw new AppError('conversation:not_found', { reason: 'conversation id owned by another guest' });
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'Not found.', code: 'conversation:not_found', retryable: false });
    expect(response.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, code: 'conversation:not_found', reason: 'conversation id owned by another guest', status: 404, guest: 'guest-1', msg: 'request refused' });
  });

  it('a rate limit carries Retry-After and the wait the page counts down', async () => {
    const response = await get(async () => {
      throw new AppError('rate_limit:exceeded', { message: 'Wait 7 s.', headers: { 'retry-after': '7' }, details: { retryAfterSeconds: 7 } });
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual({ error: 'Wait 7 s.', code: 'rate_limit:exceeded', cause: 'rate-limited', retryable: true, retryAfterSeconds: 7 });
  });

  it('a database that cannot be reached is a 503 in words, logged as an error with its cause', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5999'), { code: 'ECONNREFUSED' });
    const response = await get(async () => {
      throw new Error('Failed query: select …', { cause: refused });
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'database:unavailable', retryable: true, error: expect.stringContaining('nothing was stored') });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, code: 'database:unavailable', reason: 'database unreachable (ECONNREFUSED)' });
    expect(JSON.stringify(lines[0].err)).toContain('ECONNREFUSED');
  });

  it('anything else is a 500 naming the request, with the stack in the log and not in the answer', async () => {
    const response = await get(async () => {
      throw new TypeError('cannot read x of undefined');
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; code: string };
    expect(body.code).toBe('server:internal');
    expect(body.error).toContain(response.headers.get('x-request-id'));
    expect(JSON.stringify(body)).not.toContain('cannot read');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request failed' });
  });
});

describe('toAppError: library failures that mean something to a user', () => {
  it.each([
    [new QuotaExceededError('guest', 1_000), 'quota:exceeded', 413],
    [new BlobTooLargeError(10), 'upload:too_large', 413],
    [Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), 'blobs:full', 507],
    [Object.assign(new Error('We encountered an internal error.'), { name: 'InternalError', $metadata: { httpStatusCode: 500 } }), 'blobs:unavailable', 503],
    [Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 'database:unavailable', 503],
    [new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') }), 'database:unavailable', 503],
    [Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }), 'streams:unavailable', 503],
    [Object.assign(new Error('duplicate key'), { code: '23505' }), 'server:internal', 500],
  ])('%s → %s', (error, code, status) => {
    const mapped = toAppError(error);
    expect(mapped.code).toBe(code);
    expect(mapped.status).toBe(status);
    expect(mapped.cause).toBe(error);
  });

  it('a quota names the limit in words', () => {
    expect(toAppError(new QuotaExceededError('conversation', 500_000_000)).message).toContain('500 MB');
  });
});
