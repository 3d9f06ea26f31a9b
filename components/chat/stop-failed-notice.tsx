'use client';

/** Said when Stop did not reach the server (components/chat/stop-upstream.ts), until dismissed. */
export function StopFailedNotice({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div role="status" data-testid="stop-failed-notice" className="mb-2 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
      <p className="flex-1">{message}</p>
      <button type="button" onClick={onDismiss} className="shrink-0 rounded px-2 py-0.5 font-medium underline hover:no-underline">
        Dismiss
      </button>
    </div>
  );
}
