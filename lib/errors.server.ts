/**
 * One error shape from the domain to the page (after vercel/ai-chatbot's lib/errors.server.ts). A failure
 * a person can meet is an `AppError` with a code (`surface:kind`) that fixes its HTTP status, its
 * log level and its default words; the domain throws it, `route()` (lib/http/route.server.ts) logs it once
 * and answers it as JSON (`{ error, code, cause?, retryable, ... }`), and the page reads that body
 * (components/chat/model-error.tsx, lib/http/error-body.client.ts). Shared by server and browser: no
 * secrets, no server-only imports.
 */

import 'server-only';
export type LogLevel = 'info' | 'warn' | 'error';

type ErrorSpec = { status: number; level: LogLevel; message: string; retryable: boolean; cause?: string };

const ERRORS = {
  'request:invalid': { status: 400, level: 'warn', message: 'The request is not valid.', retryable: false },
  'request:too_large': { status: 413, level: 'warn', message: 'The request is too large.', retryable: false },
  'request:unsupported_type': { status: 415, level: 'warn', message: 'The request body must be JSON (Content-Type: application/json).', retryable: false },
  'request:cross_origin': { status: 403, level: 'warn', message: 'This request did not come from Runpad’s own pages.', retryable: false },
  'request:range_not_satisfiable': { status: 416, level: 'warn', message: 'That byte range is not in this file.', retryable: false },
  'session:missing': { status: 401, level: 'warn', message: 'Your session cookie is missing or invalid; reload the page.', retryable: false, cause: 'no-session-cookie' },
  'session:sign_in_required': { status: 401, level: 'warn', message: 'Sign in to use this Runpad.', retryable: false, cause: 'sign-in-required' },
  'session:account_required': { status: 401, level: 'warn', message: 'Sign in first.', retryable: false, cause: 'account-required' },
  'access:not_invited': { status: 403, level: 'warn', message: 'This account is not invited to this Runpad. Ask its operator to add you.', retryable: false, cause: 'not-invited' },
  'access:blocked': { status: 403, level: 'warn', message: 'You are blocked from using this Runpad. Contact its operator.', retryable: false, cause: 'blocked' },
  'access:admin_only': { status: 403, level: 'warn', message: 'Only this Runpad’s admins may do that.', retryable: false, cause: 'not-an-admin' },
  // One "Not found." for an id that is malformed, names nothing, or is someone else's: ids cannot be probed.
  'conversation:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'share:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'share:sign_in_required': { status: 401, level: 'info', message: 'This link opens only for people signed in to this Runpad: sign in, then open it again.', retryable: false, cause: 'sign-in-required' },
  'share:links_off': { status: 403, level: 'warn', message: 'Share links are off on this Runpad (its operator set RUNPAD_PUBLIC_SHARES=off): share with people or groups instead.', retryable: false },
  'share:anyone_links_off': { status: 403, level: 'warn', message: 'Links for anyone are off on this Runpad (its operator set RUNPAD_PUBLIC_SHARES=signed-in): make a link for signed-in people only.', retryable: false },
  'file:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'file:not_uploaded': { status: 409, level: 'warn', message: 'Upload the file before keeping it in your account.', retryable: false },
  'person:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'project:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'group:not_found': { status: 404, level: 'warn', message: 'No group has this id: an admin makes groups on /admin.', retryable: false },
  'member:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'member:no_account': { status: 404, level: 'warn', message: 'No account here has this email: the person makes one first (or an admin invites them on /admin), then share again.', retryable: false },
  'member:instance_invitation_needed': { status: 403, level: 'warn', message: 'No account here has this email, and this Runpad lets in only the people its admins invite: an admin must invite them to this Runpad first (on /admin, or by adding them to this project), then you can add them once they have made their account.', retryable: false },
  'project:not_allowed': { status: 403, level: 'warn', message: 'Your role in this project does not allow that: ask its owner or someone who can edit it.', retryable: false },
  'conversation:not_allowed': { status: 403, level: 'warn', message: 'This conversation is shared with you to read: only its author may change it. Continue in a copy of your own.', retryable: false },
  'device:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'invitation:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'account:not_found': { status: 404, level: 'warn', message: 'Not found.', retryable: false },
  'account:not_pending': { status: 409, level: 'warn', message: 'This account is not waiting for approval: reload the page.', retryable: false },
  'account:role_fixed': { status: 409, level: 'warn', message: 'This person is an admin through RUNPAD_ADMIN_EMAILS: take their email off that list (and restart Runpad) to change their role.', retryable: false },
  'account:own_role': { status: 409, level: 'warn', message: 'You cannot change your own role: ask another admin.', retryable: false },
  'account:exists': { status: 409, level: 'warn', message: 'Someone with this email already has an account here.', retryable: false },
  'account:invitation_open': { status: 409, level: 'warn', message: 'An invitation is open for this email: refuse this sign-up; the invited person makes their account with the link.', retryable: false },
  'account:link_protected': { status: 403, level: 'warn', message: 'No password link is shown for an admin, nor for an email on RUNPAD_ADMIN_EMAILS: they set their own password (with a mail server, "Forgot your password?" mails them a link).', retryable: false },
  'account:mail_failed': { status: 502, level: 'warn', message: 'The mail could not be sent (the server log says why): try again once the mail server answers.', retryable: true },
  'conversation:changed': { status: 409, level: 'info', message: 'This conversation changed in another tab. The latest messages are shown; send your message again.', retryable: false, cause: 'conversation-changed' },
  'message:invalid': { status: 400, level: 'warn', message: 'The message is not valid.', retryable: false },
  'message:not_found': { status: 404, level: 'warn', message: 'Unknown assistant message.', retryable: false },
  'message:conflict': { status: 409, level: 'warn', message: 'That message cannot change now.', retryable: false },
  'upload:invalid_name': { status: 400, level: 'warn', message: 'The file name is empty or not allowed.', retryable: false },
  'upload:unsupported_type': { status: 415, level: 'warn', message: 'This kind of file is not supported.', retryable: false },
  'upload:too_large': { status: 413, level: 'warn', message: 'The file is too large.', retryable: false },
  'quota:exceeded': { status: 413, level: 'warn', message: 'The storage quota is used up.', retryable: false, cause: 'quota' },
  'rate_limit:exceeded': { status: 429, level: 'warn', message: 'Too many requests; wait a moment.', retryable: true, cause: 'rate-limited' },
  'database:unavailable': { status: 503, level: 'error', message: 'The database cannot be reached right now; nothing was stored. Retry in a moment.', retryable: true, cause: 'unavailable' },
  'blobs:unavailable': { status: 503, level: 'error', message: 'File storage cannot be reached right now; nothing was stored. Retry in a moment.', retryable: true, cause: 'unavailable' },
  // A file whose record exists but whose bytes the store no longer has: a fault of the server, not of the request.
  'blobs:missing': { status: 404, level: 'error', message: 'The file’s bytes are missing from storage.', retryable: false, cause: 'missing' },
  'blobs:full': { status: 507, level: 'error', message: 'The server’s file storage is full; nothing was stored.', retryable: false, cause: 'storage-full' },
  'streams:unavailable': { status: 503, level: 'error', message: 'Live answers cannot be coordinated right now (Redis is not reachable). Retry in a moment.', retryable: true, cause: 'unavailable' },
  'model:timeout': { status: 504, level: 'error', message: 'The model stopped sending anything and the request timed out. Retry.', retryable: true, cause: 'timeout' },
  'model:unavailable': { status: 502, level: 'error', message: 'The model could not answer. Retry.', retryable: true, cause: 'unknown' },
  // A configuration that cannot work (lib/config-problems.server.ts); the words name what to change.
  'server:misconfigured': { status: 503, level: 'error', message: 'This Runpad’s configuration cannot work; whoever runs it must change it (`npm run doctor` names what to change).', retryable: false, cause: 'misconfigured' },
  'metrics:off': { status: 404, level: 'info', message: 'Metrics are off on this Runpad: its operator turns them on by setting RUNPAD_METRICS_TOKEN.', retryable: false },
  'metrics:unauthorized': { status: 401, level: 'warn', message: 'The metrics need the token set in RUNPAD_METRICS_TOKEN, sent as "Authorization: Bearer <token>".', retryable: false },
  'server:internal': { status: 500, level: 'error', message: 'Something went wrong on the server.', retryable: true, cause: 'internal' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export function errorSpec(code: ErrorCode): ErrorSpec {
  return ERRORS[code];
}

type AppErrorOptions = {
  /** Words for the user when the code's default is not precise enough. */
  message?: string;
  /** Why, for the log only (never sent): "conversation owned by another guest", the failing call. */
  reason?: string;
  /** Extra fields of the JSON body the page acts on (retryAfterSeconds, …). */
  details?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  cause?: unknown;
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly level: LogLevel;
  readonly retryable: boolean;
  readonly reason: string;
  readonly details: Record<string, string | number | boolean>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const spec = ERRORS[code];
    super(options.message ?? spec.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = spec.status;
    this.level = spec.level;
    this.retryable = spec.retryable;
    this.reason = options.reason ?? code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  /** What the page receives: the words, the code and what it can do about it. */
  body(): ErrorBody {
    const cause = (ERRORS[this.code] as ErrorSpec).cause;
    return { error: this.message, code: this.code, retryable: this.retryable, ...(cause ? { cause } : {}), ...this.details };
  }

  toResponse(): Response {
    return Response.json(this.body(), { status: this.status, headers: this.headers });
  }
}

export type ErrorBody = { error: string; code: ErrorCode; retryable: boolean; cause?: string; [detail: string]: string | number | boolean | undefined };

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
