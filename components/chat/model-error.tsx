'use client';

import { useEffect, useState } from 'react';
import { parseErrorBody } from '@/lib/http/error-body.client';

/** What the server said about a failed turn: its words, and what the page can do about it. */
export type TurnError = { message: string; cause?: string; retryable: boolean; retryAfterSeconds?: number };

/** The longest wait the page sits through by itself before retrying a rate-limited turn. */
const AUTO_RETRY_CAP_S = 120;

/**
 * The server's refusals and the model's failures arrive as JSON (`{"error", "cause", ...}`, see
 * lib/ai/model-errors.server.ts and lib/http/errors.server.ts); anything else is a failure of the connection.
 */
export function parseTurnError(error: Error): TurnError {
  const parsed = parseErrorBody(error.message);
  if (parsed) return { message: parsed.error, cause: parsed.cause, retryable: parsed.retryable !== false, retryAfterSeconds: parsed.retryAfterSeconds };
  return { message: `The answer could not be loaded (${error.message || 'the connection failed'}). Retry.`, retryable: true };
}

/**
 * A failed turn in words. A rate limit counts down and retries by itself (with Cancel); other
 * retryable failures offer Retry; a setting to fix says which, with no Retry.
 */
export function ModelErrorNotice({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const turn = parseTurnError(error);
  const waits = turn.cause === 'rate-limited' && turn.retryAfterSeconds !== undefined && turn.retryAfterSeconds <= AUTO_RETRY_CAP_S;
  const [remaining, setRemaining] = useState<number | null>(waits ? turn.retryAfterSeconds! : null);
  useEffect(() => {
    if (remaining === null) return;
    if (remaining <= 0) {
      onRetry();
      return;
    }
    const timer = setTimeout(() => setRemaining((value) => (value === null ? null : value - 1)), 1_000);
    return () => clearTimeout(timer);
  }, [remaining, onRetry]);
  return (
    <div role="alert" data-testid="model-error" data-cause={turn.cause ?? 'connection'} className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200">
      <p>{turn.message}</p>
      {remaining !== null && remaining > 0 && (
        <p className="mt-1" data-testid="retry-countdown">
          Retrying by itself in {remaining} s.{' '}
          <button type="button" className="underline" onClick={() => setRemaining(null)}>
            Cancel
          </button>
        </p>
      )}
      {turn.retryable && remaining === null && turn.cause !== 'conversation-changed' && (
        <button type="button" onClick={onRetry} className="mt-1 underline">
          Retry
        </button>
      )}
    </div>
  );
}
