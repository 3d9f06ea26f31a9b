/**
 * Why a response that is not an AppError (lib/errors.server.ts) refuses: a readiness probe's 503 answers
 * its own JSON, not an error body. The reason is kept beside the response (never in a header) so
 * route() can log it (lib/http/route.server.ts). Every other refusal is a thrown AppError.
 */
import 'server-only';
const reasons = new WeakMap<Response, string>();

/** Names why `response` refuses, for route()'s log line. */
export function withRefusalReason(response: Response, reason: string): Response {
  reasons.set(response, reason);
  return response;
}

export function refusalReason(response: Response): string | undefined {
  return reasons.get(response);
}
