/**
 * Any failure as the one AppError (lib/errors.server.ts): what the domain threw on purpose passes as it
 * is; the library errors that mean something to a user get their code (a quota, a blob over its
 * size, a database or blob store that cannot be reached, a full disk); anything else is
 * `server:internal`. The original error stays as the AppError's `cause`, for the log.
 */
import 'server-only';
import { AppError } from '@/lib/errors.server';
import { ConfigurationError, misconfiguredMessage } from '@/lib/config-problems.server';
import { BlobTooLargeError } from '@/lib/blobs/blob-store.server';
import { QuotaExceededError } from '@/lib/db/queries/quota.server';
import { quotaMessage } from '@/lib/files/storage-quota.server';
import { errorChain as chain, errorCode as codeOf, isDatabaseUnavailable } from '@/lib/db/pg-errors.server';

/** An S3-compatible store answering 5xx, or not answering in time (AWS SDK errors carry $metadata). */
function isObjectStoreFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return (status !== undefined && status >= 500) || ('$metadata' in error && /Timeout|ECONNREFUSED|socket hang up/i.test(`${error.name} ${error.message}`));
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ConfigurationError) {
    return new AppError('server:misconfigured', { message: misconfiguredMessage(error.problems), reason: `configuration: ${error.problems.map((p) => p.variable).join(', ')}`, cause: error });
  }
  for (const e of chain(error)) {
    if (e instanceof QuotaExceededError) return new AppError('quota:exceeded', { message: quotaMessage(e), reason: `storage quota (${e.scope})`, cause: error });
    if (e instanceof BlobTooLargeError) return new AppError('upload:too_large', { reason: 'too large', cause: error });
    if (codeOf(e) === 'ENOSPC' || codeOf(e) === 'EDQUOT') return new AppError('blobs:full', { reason: `blob store full (${codeOf(e)})`, cause: error });
    // ioredis gives up on a command after its few retries (lib/streams/redis-connection.server.ts).
    if (e instanceof Error && e.name === 'MaxRetriesPerRequestError') return new AppError('streams:unavailable', { reason: 'redis unreachable', cause: error });
    if (isObjectStoreFailure(e)) return new AppError('blobs:unavailable', { reason: `blob store failed (${(e as Error).name})`, cause: error });
  }
  if (isDatabaseUnavailable(error)) return new AppError('database:unavailable', { reason: `database unreachable (${chain(error).map(codeOf).find(Boolean) ?? 'connection'})`, cause: error });
  return new AppError('server:internal', { reason: 'exception', cause: error });
}
