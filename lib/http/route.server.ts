/**
 * Every API route handler goes through `route()`: one place that
 * - refuses unsafe methods (POST, PUT, PATCH, DELETE) from any origin but the app's own, so a
 *   page on another port or subdomain cannot ride the guest's cookie (see lib/request/origin.server.ts);
 * - requires `application/json` where the route reads JSON (a cross-site `no-cors` request can
 *   only send text/plain, form or multipart bodies);
 * - gives the request an id (answered in `x-request-id`) and logs every refusal — 401, 403, 404,
 *   413, 429 and the like — with that id, the guest and the reason, never a cookie or a share's id;
 * - answers an AppError (lib/errors.server.ts) thrown anywhere below with its status and words, logged
 *   once at its level with its code and reason; any other exception becomes one (a database that
 *   cannot be reached is a 503 in words, the rest a logged 500 with the request id, not a stack);
 * - counts every answer for the metrics (lib/metrics/registry.server.ts): by route pattern, method, status
 *   and error code, with the time until the response starts.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import { sessionGuestId } from '@/lib/auth/current-user.server';
import { logger, type Logger } from '@/lib/log/logger.server';
import { AppError } from '@/lib/errors.server';
import { recordHttpRequest } from '@/lib/metrics/registry.server';
import { routeLabel } from '@/lib/metrics/route-label.server';
import { refusalReason } from './errors.server';
import { loggedPath } from './logged-path.server';
import { toAppError } from './to-app-error.server';
import { isSameOriginRequest, requestOrigin } from '@/lib/request/origin.server';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type RouteContext<P> = { request: Request; params: P; requestId: string; log: Logger };
type Handler<P> = (context: RouteContext<P>) => Promise<Response>;
type RouteOptions = { body?: 'json' | 'bytes' | 'none' };

export function route<P = Record<string, never>>(handler: Handler<P>, options: RouteOptions = {}) {
  return async (request: Request, nextContext?: { params: Promise<P> }): Promise<Response> => {
    const requestId = crypto.randomUUID();
    const startedAt = performance.now();
    const log = logger().child({ requestId });
    let response: Response;
    let logged = false;
    let errorCode: string | null = null;
    try {
      guard(request, options);
      response = await handler({ request, params: (await nextContext?.params) as P, requestId, log });
    } catch (thrown) {
      const error = toAppError(thrown);
      errorCode = error.code;
      const path = loggedPath(request.url);
      // The guest is only for the log line: a cookie that cannot be read is logged as no guest.
      const guest = error.level === 'error' ? undefined : await sessionGuestId().catch(() => null);
      log[error.level]({ code: error.code, status: error.status, reason: error.reason, method: request.method, path, ...(guest !== undefined ? { guest } : {}), ...(error.level === 'error' ? { err: error.cause ?? thrown } : {}) }, error.level === 'error' ? 'request failed' : 'request refused');
      logged = true;
      // An unexpected failure names the request, so the person can quote it and the log be found.
      response = (error.code === 'server:internal' ? new AppError('server:internal', { message: `Something went wrong on the server (request ${requestId}).` }) : error).toResponse();
    }
    // A refusal answered without an AppError: a readiness probe's 503, one of better-auth's own.
    if (!logged && response.status >= 400 && response.status !== 500) {
      log.warn(
        { status: response.status, method: request.method, path: loggedPath(request.url), guest: await sessionGuestId().catch(() => null), reason: refusalReason(response) ?? 'unspecified' },
        'request refused',
      );
    }
    const params = (await Promise.resolve(nextContext?.params).catch(() => undefined)) as Record<string, string | string[] | undefined> | undefined;
    recordHttpRequest({ route: routeLabel(new URL(request.url).pathname, params), method: request.method, status: response.status, seconds: (performance.now() - startedAt) / 1000, errorCode });
    // Streaming responses may have immutable headers; the id then travels in the log only.
    try {
      response.headers.set('x-request-id', requestId);
    } catch {
      /* immutable headers */
    }
    return response;
  };
}

const FETCH_SITES = new Set(['cross-site', 'same-site', 'same-origin', 'none']);
/** The media types a form, a fetch or a tool sends by itself: named in the log; any other is "other". */
const SENT_MEDIA_TYPES = new Set(['text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded', 'application/octet-stream', 'text/csv', 'text/html', 'text/xml', 'application/xml', 'application/ld+json', 'application/problem+json']);

/**
 * What a refusal's log line says of the header that refused it: an origin as browsers write one
 * (scheme, host, port: an address, as the client's is), a fetch site of the standard's, a media
 * type of those clients send by themselves; anything else a sender wrote there is only "other",
 * never its text.
 */
function refusedOrigin(headers: Headers): string {
  const origin = headers.get('origin');
  if (origin !== null) {
    const parsed = URL.parse(origin);
    return parsed !== null && parsed.origin === origin ? origin : 'other origin';
  }
  const site = headers.get('sec-fetch-site') ?? 'none';
  return FETCH_SITES.has(site) ? site : 'other fetch site';
}

/** Throws the refusal of an unsafe request from another origin, or of a JSON route's non-JSON body. */
function guard(request: Request, options: RouteOptions): void {
  if (!UNSAFE.has(request.method)) return;
  const origin = requestOrigin(request.headers, getConfig());
  if (!isSameOriginRequest(request.headers, origin)) {
    throw new AppError('request:cross_origin', { reason: `cross-origin ${refusedOrigin(request.headers)}` });
  }
  if (options.body === 'json') {
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') throw new AppError('request:unsupported_type', { reason: `content-type ${type === undefined ? 'none' : SENT_MEDIA_TYPES.has(type) ? type : 'other'}` });
  }
}
