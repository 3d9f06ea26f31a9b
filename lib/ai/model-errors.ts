/**
 * Turns a model failure into words a user can act on; shown inline in the chat with a Retry.
 * Never leaks the API key or the raw response body.
 */
import { APICallError } from 'ai';

export function describeModelError(error: unknown): string {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 401 || status === 403) return 'The model provider refused the API key (check OPENAI_API_KEY).';
    if (status === 404) return 'The model was not found at the provider (check RUNPAD_MODEL).';
    if (status === 429) return 'The model provider is rate-limiting requests; wait a moment and retry.';
    if (status !== undefined && status >= 500) return `The model provider had an error (HTTP ${status}); retry in a moment.`;
    if (status === undefined) return 'The model server could not be reached (check OPENAI_BASE_URL and that the server is running).';
    return `The model provider rejected the request (HTTP ${status}).`;
  }
  if (error instanceof Error && /fetch failed|ECONNREFUSED|ENOTFOUND/i.test(`${error.message} ${String(error.cause)}`)) {
    return 'The model server could not be reached (check OPENAI_BASE_URL and that the server is running).';
  }
  if (error instanceof Error && error.name === 'TimeoutError') return 'The model took too long to answer; retry.';
  return 'The model could not answer; retry.';
}
