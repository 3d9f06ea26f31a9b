/**
 * How an error is written to the log: what failed and where, never the data it was handling.
 * Libraries put that data on their errors, and pino's default serializer copies every property:
 * the AI SDK's request body (the whole conversation, the user's files' rows in tool results) and
 * response headers, Drizzle's query parameters (in its message too: a session's token, a stored
 * answer), Postgres's `detail` (it quotes the row's values). So only the fields that name a
 * failure are kept, and the size is bounded.
 *
 * Messages carry data too: the AI SDK's parse error is "JSON parsing failed: Text: <the whole
 * response>" (a model's answer, echoing the user's words), a validation error quotes the value, V8's
 * JSON.parse quotes the start of its input. So every message of the chain, at any depth, is cut to
 * its first line, to the place where it starts quoting a value the error carries (`text`, `value`,
 * `responseBody`…), JSON.parse's quoted excerpt is dropped, and what is left is bounded.
 *
 * A model provider's error (the AI SDK's and its providers' `AI_*` errors) is logged by its type
 * alone, never its message: the message is the provider's own words (a 400 that quotes the prompt),
 * the model's (an unknown tool's name, its input) or a body it answered. What names the failure is
 * kept instead: the HTTP status, the provider's error type and its request id (as tokens; anything
 * else there is dropped), and "unknown tool" for a tool no one offered.
 */

/**
 * The fields kept when they are strings, numbers or booleans: codes and places, no values (the
 * table, column and constraint as postgres.js and as PGlite name them).
 */
import 'server-only';
const KEPT_FIELDS = ['code', 'status', 'statusCode', 'errno', 'syscall', 'address', 'port', 'severity', 'isRetryable', 'table_name', 'column_name', 'constraint_name', 'table', 'column', 'constraint', 'routine'] as const;
/** Properties in which libraries carry the data they handled (AI SDK, Drizzle, postgres.js, fetch's kin). */
const DATA_FIELDS = ['text', 'value', 'data', 'body', 'input', 'toolInput', 'responseBody', 'requestBodyValues', 'params', 'parameters', 'detail', 'response', 'request'] as const;
const MAX_FIELD_CHARS = 2_000;
const MAX_MESSAGE_CHARS = 500;
/** How much of a carried value is looked for in the message (a message may quote only its start). */
const QUOTED_PREFIX_CHARS = 24;
const NOT_LOGGED = '[not logged]';
const MAX_STACK_FRAMES = 20;
const MAX_CAUSE_DEPTH = 4;
const MAX_AGGREGATED = 5;
/** A provider's error type or request id is logged only when it is a token (`invalid_request_error`, `req_abc123`): never words. */
const TOKEN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
/** The headers in which providers name a request: OpenAI and OpenAI-compatible servers, Anthropic. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id'] as const;
/** The SDK's errors whose message is the SDK's own words about configuration, never a provider's or a model's. */
const SDK_WORDED = new Set(['AI_LoadAPIKeyError', 'AI_LoadSettingError', 'AI_UnsupportedFunctionalityError']);
/** The words logged for a provider error of this type in place of its message. */
const PROVIDER_WORDS: Record<string, string> = {
  AI_APICallError: 'the provider answered with an error',
  AI_NoSuchToolError: 'unknown tool',
  AI_InvalidToolInputError: 'invalid input for a tool',
  AI_RetryError: 'failed after retries',
};

export type SerializedError = {
  type: string;
  message: string;
  stack?: string;
  url?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
  providerErrorType?: string;
  requestId?: string;
} & Partial<Record<(typeof KEPT_FIELDS)[number], string | number | boolean>>;

function bounded(text: string, max = MAX_FIELD_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** A carried value as a message would quote it: the string itself, or an object as JSON. */
function quotedForm(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return null;
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

/**
 * The message as logged: its first line (Drizzle's `\nparams:`, the AI SDK's `\nError message:`
 * and every body's later lines go), cut where it begins to quote a value the error carries,
 * without JSON.parse's excerpt of its input, bounded.
 */
function loggedMessage(error: Error): string {
  let message = error.message.split(/\r?\n/, 1)[0] ?? '';
  const fields = error as unknown as Record<string, unknown>;
  for (const field of DATA_FIELDS) {
    const quoted = quotedForm(fields[field]);
    if (!quoted || quoted.length < 3) continue;
    const at = message.indexOf(quoted.split(/\r?\n/, 1)[0].slice(0, QUOTED_PREFIX_CHARS));
    if (at !== -1) message = `${message.slice(0, at)}${NOT_LOGGED}`;
  }
  // V8: `Unexpected token 'd', "data: {"id"... is not valid JSON`.
  if (error instanceof SyntaxError) message = message.replace(/"[\s\S]*"(\.\.\.)? is not valid JSON$/, `${NOT_LOGGED} is not valid JSON`);
  return bounded(message, MAX_MESSAGE_CHARS);
}

/** The stack's frames under the cleaned message (the stack's first lines repeat the raw message). */
function cleanStack(stack: string, header: string): string {
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return [header, ...frames.slice(0, MAX_STACK_FRAMES)].join('\n');
}

/** A URL without its query string, which some providers' keys and signatures travel in. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '[not a URL]';
  }
}

/** Whether this error is a model provider's (the AI SDK's `AI_*` errors), whose message is never logged. */
function isProviderError(error: Error): boolean {
  return error.name.startsWith('AI_') && !SDK_WORDED.has(error.name);
}

/** The error type a provider put in its JSON error body (OpenAI, Anthropic: `error.type`; Gemini: `error.status`), if it is a token. */
function providerErrorType(fields: Record<string, unknown>): string | undefined {
  let body: unknown = fields.data;
  if (body === undefined && typeof fields.responseBody === 'string') {
    try {
      body = JSON.parse(fields.responseBody);
    } catch {
      return undefined;
    }
  }
  const error = body !== null && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  const named = error !== null && typeof error === 'object' ? ((error as { type?: unknown }).type ?? (error as { status?: unknown }).status ?? (error as { code?: unknown }).code) : undefined;
  return typeof named === 'string' && TOKEN.test(named) ? named : undefined;
}

function requestIdOf(fields: Record<string, unknown>): string | undefined {
  const headers = fields.responseHeaders;
  if (headers === null || typeof headers !== 'object') return undefined;
  for (const name of REQUEST_ID_HEADERS) {
    const id = (headers as Record<string, unknown>)[name];
    if (typeof id === 'string' && TOKEN.test(id)) return id;
  }
  return undefined;
}

export function serializeError(value: unknown, depth = 0): SerializedError {
  if (!(value instanceof Error)) {
    // A thrown non-Error: a number or a flag as it is; a string's words (a provider's stream error
    // can be one) and an object's properties never, only its kind.
    if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return { type: typeof value, message: String(value) };
    const message = typeof value === 'string' ? `[${value.length} characters not logged]` : `[${Object.prototype.toString.call(value).slice(8, -1)}]`;
    return { type: typeof value, message };
  }
  const provider = isProviderError(value);
  const message = provider ? (PROVIDER_WORDS[value.name] ?? NOT_LOGGED) : loggedMessage(value);
  const serialized: SerializedError = { type: value.name, message };
  if (value.stack) serialized.stack = cleanStack(value.stack, `${value.name}: ${message}`);
  const fields = value as unknown as Record<string, unknown>;
  for (const field of KEPT_FIELDS) {
    const kept = fields[field];
    if (typeof kept === 'string' || typeof kept === 'number' || typeof kept === 'boolean') serialized[field] = typeof kept === 'string' ? bounded(kept) : kept;
  }
  if (typeof fields.url === 'string') serialized.url = withoutQuery(fields.url);
  if (provider) {
    const type = providerErrorType(fields);
    if (type) serialized.providerErrorType = type;
    const requestId = requestIdOf(fields);
    if (requestId) serialized.requestId = requestId;
    // A retry's last failure names it (its own message is the last error's words).
    if (value.name === 'AI_RetryError' && fields.lastError !== undefined && value.cause === undefined && depth < MAX_CAUSE_DEPTH) serialized.cause = serializeError(fields.lastError, depth + 1);
  }
  if (depth < MAX_CAUSE_DEPTH) {
    if (value.cause !== undefined) serialized.cause = serializeError(value.cause, depth + 1);
    if (value instanceof AggregateError) serialized.errors = (value.errors as unknown[]).slice(0, MAX_AGGREGATED).map((error) => serializeError(error, depth + 1));
  }
  return serialized;
}
