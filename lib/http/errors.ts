/**
 * JSON error responses with a message a person can act on. The reason behind a refusal is kept
 * beside the response (never in a header) so the route wrapper can log it (lib/http/route.ts).
 */
const reasons = new WeakMap<Response, string>();

export function jsonError(status: number, message: string, init: { headers?: HeadersInit; reason?: string; details?: Record<string, string | number | boolean> } = {}): Response {
  const response = Response.json({ error: message, ...init.details }, { status, headers: init.headers });
  reasons.set(response, init.reason ?? message);
  return response;
}

export const notFound = (reason = 'not found') => jsonError(404, 'Not found.', { reason });

/** 429 with Retry-After (seconds) and the wait in words. */
export function tooManyRequests(message: string, retryAfterSeconds: number, reason: string): Response {
  return jsonError(429, message, { headers: { 'retry-after': String(retryAfterSeconds) }, reason, details: { cause: 'rate-limited', retryable: true, retryAfterSeconds } });
}

/** Names why a response that is not a jsonError() refuses (for route()'s log line). */
export function withRefusalReason(response: Response, reason: string): Response {
  reasons.set(response, reason);
  return response;
}

export function refusalReason(response: Response): string | undefined {
  return reasons.get(response);
}
