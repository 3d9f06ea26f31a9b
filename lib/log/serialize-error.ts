/**
 * How an error is written to the log: what failed and where, never the data it was handling.
 * Libraries put that data on their errors, and pino's default serializer copies every property:
 * the AI SDK's request body (the whole conversation, the user's files' rows in tool results) and
 * response headers, Drizzle's query parameters (in its message too: a session's token, a stored
 * answer), Postgres's `detail` (it quotes the row's values). So only the fields that name a
 * failure are kept, the message loses Drizzle's parameters, and the size is bounded.
 */

/**
 * The fields kept when they are strings, numbers or booleans: codes and places, no values (the
 * table, column and constraint as postgres.js and as PGlite name them).
 */
const KEPT_FIELDS = ['code', 'status', 'statusCode', 'errno', 'syscall', 'address', 'port', 'severity', 'isRetryable', 'table_name', 'column_name', 'constraint_name', 'table', 'column', 'constraint', 'routine'] as const;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_STACK_FRAMES = 20;
const MAX_CAUSE_DEPTH = 4;
const MAX_AGGREGATED = 5;

export type SerializedError = {
  type: string;
  message: string;
  stack?: string;
  url?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
} & Partial<Record<(typeof KEPT_FIELDS)[number], string | number | boolean>>;

function bounded(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length} characters)` : text;
}

/** Drizzle writes `Failed query: <sql>\nparams: <values>`; the SQL has placeholders, the values are data. */
function withoutParameters(message: string): string {
  const at = message.indexOf('\nparams:');
  return at === -1 ? message : `${message.slice(0, at)}\nparams: [not logged]`;
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

export function serializeError(value: unknown, depth = 0): SerializedError {
  if (!(value instanceof Error)) {
    // A thrown non-Error: its text if it is a primitive, never an object's properties.
    const message = value === null || typeof value !== 'object' ? String(value) : `[${Object.prototype.toString.call(value).slice(8, -1)}]`;
    return { type: typeof value, message: bounded(message) };
  }
  const message = bounded(withoutParameters(value.message));
  const serialized: SerializedError = { type: value.name, message };
  if (value.stack) serialized.stack = cleanStack(value.stack, `${value.name}: ${message}`);
  const fields = value as unknown as Record<string, unknown>;
  for (const field of KEPT_FIELDS) {
    const kept = fields[field];
    if (typeof kept === 'string' || typeof kept === 'number' || typeof kept === 'boolean') serialized[field] = typeof kept === 'string' ? bounded(kept) : kept;
  }
  if (typeof fields.url === 'string') serialized.url = withoutQuery(fields.url);
  if (depth < MAX_CAUSE_DEPTH) {
    if (value.cause !== undefined) serialized.cause = serializeError(value.cause, depth + 1);
    if (value instanceof AggregateError) serialized.errors = (value.errors as unknown[]).slice(0, MAX_AGGREGATED).map((error) => serializeError(error, depth + 1));
  }
  return serialized;
}
