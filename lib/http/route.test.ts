import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError, ERROR_CODES, errorSpec } from '@/lib/errors.server';
import { QuotaExceededError } from '@/lib/db/queries/quota.server';
import { BlobTooLargeError } from '@/lib/blobs/blob-store.server';
import { captureAppLog, type LogLine } from '@/lib/testing/captured-log';

vi.mock('server-only', () => ({}));
/** Who is asking, as each test sets it (requireUser reads it through resolveIdentity). */
let identity: { ok: false; refusal: AppError } | { ok: true; identity: { userId: string; kind: 'guest' | 'account'; isAdmin: boolean } } = { ok: false, refusal: new AppError('session:missing') };
vi.mock('@/lib/auth/current-user.server', () => ({ sessionGuestId: async () => 'guest-1', resolveIdentity: async () => identity }));
const { route } = await import('./route.server');
const { toAppError } = await import('./to-app-error.server');
const { idOrNotFound, requireAdmin, requireUser, conversationIdSchema } = await import('./session.server');
const { readJson } = await import('./read-json.server');
const { z } = await import('zod');

/** Every log line the route writes, parsed. */
let lines: LogLine[] = [];
beforeEach(() => {
  lines = captureAppLog();
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

  it('a share link’s id, the capability to read it, is not in the log: a fingerprint stands for it', async () => {
    const token = 'Zq3xK8pLmN2vR7tY5wB1cA';
    const refuse = (path: string) =>
      route(async () => {
        throw new AppError('rate_limit:exceeded', { message: 'Wait 7 s.' });
      })(new Request(`http://app.test${path}`, { method: 'GET' }));
    await refuse(`/api/shares/${token}/fork`);
    await refuse(`/api/shares/${token}`);
    await refuse(`/api/shares/OtherShareIdOtherShare0/notebook`);
    expect(JSON.stringify(lines)).not.toContain(token);
    const paths = lines.map((l) => String(l.path));
    expect(paths[0]).toMatch(/^\/api\/shares\/share~[\w-]{8}\/fork$/);
    // The same share has the same fingerprint on every line; another share another.
    expect(paths[1]).toBe(paths[0].replace('/fork', ''));
    expect(paths[2].split('/')[3]).not.toBe(paths[0].split('/')[3]);
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

describe('refusals thrown below route(): who is asking, the body, the id, the origin', () => {
  const post = (handler: (request: Request) => Promise<Response>, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    route(async ({ request }) => handler(request), { body: 'json' })(
      new Request('http://localhost:3000/api/thing', { method: 'POST', body: '{}', ...init, headers: { host: 'localhost:3000', origin: 'http://localhost:3000', 'content-type': 'application/json', ...init.headers } }),
    );

  it('requireUser throws the refusal of who is asking: its status, words, cause and the wait', async () => {
    identity = { ok: false, refusal: new AppError('access:blocked', { reason: 'blocked' }) };
    const blocked = await get(async () => Response.json(await requireUser()));
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toEqual({ error: 'You are blocked from using this Runpad. Contact its operator.', code: 'access:blocked', cause: 'blocked', retryable: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, code: 'access:blocked', reason: 'blocked', msg: 'request refused' });

    identity = { ok: false, refusal: new AppError('rate_limit:exceeded', { message: 'Too many new guest sessions. Try again in 9 seconds.', headers: { 'retry-after': '9' }, details: { retryAfterSeconds: 9 } }) };
    const limited = await get(async () => Response.json(await requireUser()));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('9');
    expect(await limited.json()).toMatchObject({ code: 'rate_limit:exceeded', cause: 'rate-limited', retryable: true, retryAfterSeconds: 9 });
  });

  it('requireAdmin refuses a guest (sign in) and an account that is not an admin (403), and lets an admin through', async () => {
    identity = { ok: true, identity: { userId: 'g', kind: 'guest', isAdmin: false } };
    expect(await (await get(async () => Response.json(await requireAdmin()))).json()).toMatchObject({ code: 'session:account_required', error: 'Sign in first.' });
    identity = { ok: true, identity: { userId: 'a', kind: 'account', isAdmin: false } };
    expect((await get(async () => Response.json(await requireAdmin()))).status).toBe(403);
    identity = { ok: true, identity: { userId: 'b', kind: 'account', isAdmin: true } };
    expect(await (await get(async () => Response.json((await requireAdmin()).userId))).json()).toBe('b');
  });

  it('a malformed id is the same 404 as one that names nothing, with the malformation in the log only', async () => {
    const response = await get(async () => Response.json(idOrNotFound(conversationIdSchema, 'not-a-uuid', 'conversation:not_found', 'conversation id')));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found.', code: 'conversation:not_found', retryable: false });
    expect(lines[0]).toMatchObject({ reason: 'malformed conversation id' });
  });

  it('readJson refuses a body that is not JSON, too large or of the wrong shape in words (400, 413)', async () => {
    const schema = z.object({ title: z.string() });
    const notJson = await post(async (request) => Response.json(await readJson(request, schema)), { body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'request:invalid', error: 'The request body is not valid JSON.' });
    const wrong = await post(async (request) => Response.json(await readJson(request, schema)), { body: '{"title":1}' });
    expect(await wrong.json()).toMatchObject({ code: 'request:invalid', error: expect.stringContaining('Invalid request at title') });
    const large = await post(async (request) => Response.json(await readJson(request, schema, 10)), { body: JSON.stringify({ title: 'x'.repeat(100) }) });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ code: 'request:too_large', error: expect.stringContaining('larger than') });
    const fine = await post(async (request) => Response.json(await readJson(request, schema)), { body: '{"title":"ok"}' });
    expect(await fine.json()).toEqual({ title: 'ok' });
  });

  it('another origin (403) and a JSON route sent text (415) are refused before the handler runs, logged once', async () => {
    let ran = false;
    const handler = async () => {
      ran = true;
      return Response.json({});
    };
    const cross = await post(handler, { headers: { origin: 'http://evil.test' } });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toMatchObject({ code: 'request:cross_origin', error: 'This request did not come from Runpad’s own pages.' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ code: 'request:cross_origin', reason: 'cross-origin http://evil.test' });
    const text = await post(handler, { headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ code: 'request:unsupported_type' });
    expect(ran).toBe(false);
  });

  it('a refused header is named in the log only as an origin, a fetch site or a media type; any other text its sender wrote is not', async () => {
    const handler = async () => Response.json({});
    const token = `SNTL${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    // Header values hold ASCII only: every other way to write text a sender chose.
    const written = [`${token} "double" 'single' \`back\``, `http://evil.test/${token}`, `http://evil.test?${token}`, `null ${token}`, `text/${token}`, `${token}/json; charset=utf-8`, `application/json${token}`, `${token}`];
    for (const value of written) {
      expect((await post(handler, { headers: { origin: value } })).status).toBe(403);
      expect((await post(handler, { headers: { 'sec-fetch-site': value } })).status).toBe(403);
      expect((await post(handler, { headers: { 'content-type': value } })).status).toBe(415);
    }
    expect(lines.length).toBe(written.length * 3);
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(JSON.stringify(lines).toLowerCase()).not.toContain(token.toLowerCase());
    // What names the refusal is kept.
    await post(handler, { headers: { origin: 'http://evil.test:8080' } });
    await post(handler, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    expect(lines.slice(-2).map((line) => line.reason)).toEqual(['cross-origin http://evil.test:8080', 'content-type text/plain']);
  });

  it('bytes missing from the store under a granted file are the server’s fault: logged as an error, 404 in words', async () => {
    const response = await get(async () => {
      throw new AppError('blobs:missing', { reason: 'blob abc missing from the store' });
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'blobs:missing', error: 'The file’s bytes are missing from storage.' });
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request failed', reason: 'blob abc missing from the store' });
  });
});
