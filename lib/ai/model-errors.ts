/**
 * Model failures, each with its own words and way out (ARCHITECTURE.md, "Model loop"): the cause, a
 * sentence a user can act on, whether Retry makes sense, and how long a rate limit asks to wait.
 * It travels to the page as the stream's error text, JSON-encoded (`modelErrorText`), so the page
 * can count down and retry by itself; never the API key or the provider's raw body.
 */
import { APICallError } from 'ai';

export type ModelErrorCause = 'rate-limited' | 'quota' | 'provider' | 'auth' | 'model-not-found' | 'unreachable' | 'malformed' | 'timeout' | 'rejected' | 'unknown';
export type ModelError = { cause: ModelErrorCause; message: string; retryable: boolean; retryAfterSeconds?: number };

function retryAfterSeconds(error: APICallError): number | undefined {
  const headers = error.responseHeaders ?? {};
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return Math.max(1, Math.ceil(ms / 1000));
  const raw = headers['retry-after'];
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1, Math.ceil(seconds));
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause !== undefined ? error.cause : undefined;
}

export function classifyModelError(error: unknown): ModelError {
  const api = APICallError.isInstance(error) ? error : APICallError.isInstance(causeOf(error)) ? (causeOf(error) as APICallError) : null;
  if (api && api.statusCode !== undefined) {
    const status = api.statusCode;
    const body = api.responseBody ?? '';
    if (status === 429 && /insufficient_quota|quota/i.test(body)) {
      return { cause: 'quota', retryable: false, message: 'The model provider says the account’s quota is used up: check the billing of the account behind OPENAI_API_KEY.' };
    }
    if (status === 429) {
      const wait = retryAfterSeconds(api);
      return { cause: 'rate-limited', retryable: true, retryAfterSeconds: wait, message: `The model provider is rate-limiting requests${wait ? ` and asks to wait ${wait} s` : ''}.` };
    }
    if (status === 401 || status === 403) return { cause: 'auth', retryable: false, message: 'The model provider refused the API key: check OPENAI_API_KEY.' };
    if (status === 404) return { cause: 'model-not-found', retryable: false, message: 'The model was not found at the provider: check RUNPAD_MODEL (and OPENAI_BASE_URL).' };
    if (status >= 500) return { cause: 'provider', retryable: true, message: `The model provider had an error (HTTP ${status}). Retry in a moment.` };
    return { cause: 'rejected', retryable: false, message: `The model provider rejected the request (HTTP ${status}).` };
  }
  const text = error instanceof Error ? `${error.name} ${error.message} ${String(causeOf(error) ?? '')}` : String(error);
  if (/TimeoutError|timeout of \d+ms exceeded/i.test(text)) return { cause: 'timeout', retryable: true, message: 'The model stopped sending anything and the request timed out. Retry.' };
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|other side closed|terminated/i.test(text)) {
    return { cause: 'unreachable', retryable: true, message: 'The model server could not be reached or dropped the connection: check OPENAI_BASE_URL and that the server is running, then retry.' };
  }
  if (/JSON|parse|Invalid JSON|Type validation/i.test(text)) return { cause: 'malformed', retryable: true, message: 'The model server sent a malformed answer; it was discarded. Retry.' };
  return { cause: 'unknown', retryable: true, message: 'The model could not answer. Retry.' };
}

/** The stream's error text: the page shows `error` and acts on the rest (components/chat/model-error.tsx). */
export function modelErrorText(error: ModelError): string {
  return JSON.stringify({ error: error.message, cause: error.cause, retryable: error.retryable, ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}) });
}
