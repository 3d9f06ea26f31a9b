/**
 * Model failures, each with its own words and way out (ARCHITECTURE.md, "Model loop"): the cause, a
 * sentence a user can act on, whether Retry makes sense, and how long a rate limit asks to wait.
 * It travels to the page as the stream's error text, JSON-encoded (`modelErrorText`), so the page
 * can count down and retry by itself; never the API key or the provider's raw body.
 */
import 'server-only';
import { APICallError } from 'ai';
import { ModelInputNotRecordedError } from './call-after.server';

export type ModelErrorCause =
  | 'rate-limited'
  | 'quota'
  | 'provider'
  | 'auth'
  | 'model-not-found'
  | 'context-too-long'
  | 'unreachable'
  | 'malformed'
  | 'timeout'
  | 'rejected'
  | 'not-recorded'
  | 'unknown';

/**
 * Which settings a failure points at, so the words name the right variable for the model that
 * failed (its provider's key, the list that names it). The defaults are the single-model shorthand.
 */
export type ModelErrorContext = { apiKeyVariable?: string | null; configVariable?: string; label?: string };
const SHORTHAND: Required<ModelErrorContext> = { apiKeyVariable: 'OPENAI_API_KEY', configVariable: 'RUNPAD_MODEL (and OPENAI_BASE_URL)', label: '' };

/** Each provider's words for the same failures: OpenAI, Anthropic, Gemini, OpenAI-compatible servers. */
const QUOTA_BODY = /insufficient_quota|check your plan and billing|credit balance is too low|billing/i;
const OVERLOADED_BODY = /overloaded|UNAVAILABLE|try again later/i;
const CONTEXT_BODY = /context_length_exceeded|context length|context window|prompt is too long|too many tokens|input token count|exceeds the maximum number of tokens|maximum context/i;
const MODEL_NOT_FOUND_BODY = /model_not_found|not_found_error|NOT_FOUND|is not found for API version|does not exist|unknown model|model .* not found/i;
export type ModelError = { cause: ModelErrorCause; message: string; retryable: boolean; retryAfterSeconds?: number };

/** Gemini says how long to wait in its body (`"retryDelay": "30s"`), not in a header. */
function retryDelayInBody(body: string): number | undefined {
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  return match ? Math.max(1, Math.ceil(Number(match[1]))) : undefined;
}

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

function retryAfterOf(error: APICallError): number | undefined {
  return retryAfterSeconds(error) ?? retryDelayInBody(error.responseBody ?? '');
}

function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause !== undefined ? error.cause : undefined;
}

export function classifyModelError(error: unknown, context: ModelErrorContext = {}): ModelError {
  const keyVariable = context.apiKeyVariable === undefined ? SHORTHAND.apiKeyVariable : context.apiKeyVariable;
  const configVariable = context.configVariable ?? SHORTHAND.configVariable;
  const api = APICallError.isInstance(error) ? error : APICallError.isInstance(causeOf(error)) ? (causeOf(error) as APICallError) : null;
  if (api && api.statusCode !== undefined) {
    const status = api.statusCode;
    const body = api.responseBody ?? '';
    if (status === 429 && QUOTA_BODY.test(body)) {
      return { cause: 'quota', retryable: false, message: `The model provider says the account’s quota is used up: check the billing of the account behind ${keyVariable ?? 'the API key'}.` };
    }
    if (status === 429) {
      const wait = retryAfterOf(api);
      return { cause: 'rate-limited', retryable: true, retryAfterSeconds: wait, message: `The model provider is rate-limiting requests${wait ? ` and asks to wait ${wait} s` : ''}.` };
    }
    if (status === 401 || status === 403 || (status === 400 && /API_KEY_INVALID|API key not valid/i.test(body))) {
      return { cause: 'auth', retryable: false, message: `The model provider refused the API key: check ${keyVariable ?? 'the API key'}.` };
    }
    if (status === 404 || (status === 400 && MODEL_NOT_FOUND_BODY.test(body) && /model/i.test(body))) {
      return { cause: 'model-not-found', retryable: false, message: `The model was not found at the provider: check ${configVariable}.` };
    }
    if ((status === 400 || status === 413) && CONTEXT_BODY.test(body)) {
      return { cause: 'context-too-long', retryable: false, message: 'The conversation is too long for this model’s context: start a new conversation, or pick a model with a larger context.' };
    }
    // Anthropic answers 529 when overloaded, Gemini 503 UNAVAILABLE, OpenAI 503: all worth a retry.
    if (status === 529 || (status === 503 && OVERLOADED_BODY.test(body))) {
      return { cause: 'provider', retryable: true, message: `The model provider is overloaded (HTTP ${status}). Retry in a moment.` };
    }
    if (status >= 500) return { cause: 'provider', retryable: true, message: `The model provider had an error (HTTP ${status}). Retry in a moment.` };
    return { cause: 'rejected', retryable: false, message: `The model provider rejected the request (HTTP ${status}).` };
  }
  if (error instanceof ModelInputNotRecordedError) return { cause: 'not-recorded', retryable: true, message: 'Runpad could not record what it was about to send to the model, so nothing was sent. Retry; if it keeps failing, the server cannot write to its database.' };
  // Anthropic reports overload inside an open stream too (an `error` event, not a status).
  const streamed = streamedErrorType(error);
  if (streamed === 'overloaded_error') return { cause: 'provider', retryable: true, message: 'The model provider is overloaded. Retry in a moment.' };
  if (streamed === 'rate_limit_error') return { cause: 'rate-limited', retryable: true, message: 'The model provider is rate-limiting requests.' };
  const text = error instanceof Error ? `${error.name} ${error.message} ${String(causeOf(error) ?? '')}` : String(error);
  if (/TimeoutError|timeout of \d+ms exceeded/i.test(text)) return { cause: 'timeout', retryable: true, message: 'The model stopped sending anything and the request timed out. Retry.' };
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|other side closed|terminated/i.test(text)) {
    return { cause: 'unreachable', retryable: true, message: `The model server could not be reached or dropped the connection: check ${configVariable.includes('OPENAI_BASE_URL') ? 'OPENAI_BASE_URL' : `this model's base URL in ${configVariable}`} and that the server is running, then retry.` };
  }
  if (/JSON|parse|Invalid JSON|Type validation/i.test(text)) return { cause: 'malformed', retryable: true, message: 'The model server sent a malformed answer; it was discarded. Retry.' };
  return { cause: 'unknown', retryable: true, message: 'The model could not answer. Retry.' };
}

/** The `type` of an error the provider sent inside its stream (Anthropic's `{ type: 'error', error: { type } }`). */
function streamedErrorType(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const inner = (error as { error?: unknown; type?: unknown }).error;
  if (typeof inner === 'object' && inner !== null && typeof (inner as { type?: unknown }).type === 'string') return (inner as { type: string }).type;
  return null;
}

/** The stream's error text: the page shows `error` and acts on the rest (components/chat/model-error.tsx). */
export function modelErrorText(error: ModelError): string {
  return JSON.stringify({ error: error.message, cause: error.cause, retryable: error.retryable, ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}) });
}
