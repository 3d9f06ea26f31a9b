'use client';

import { formatDuration } from '@/lib/format';
import type { RestoreApi } from './use-restore';

/**
 * Says when this page's interpreter lacks the state of earlier runs, and offers to rebuild it;
 * then shows the replay's progress and anything that did not come back the same.
 */
export function RestoreBanner({ restore, busy }: { restore: RestoreApi; busy: boolean }) {
  const { state, missing } = restore;
  const tone = 'mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border px-3 py-2 text-sm';
  if (state.kind === 'running') {
    return (
      <div data-testid="restore-banner" data-restore-state="running" role="status" className={`${tone} border-blue-300 bg-blue-50 text-blue-950 dark:border-blue-800 dark:bg-blue-950/40 dark:text-blue-100`}>
        <span>
          Restoring the interpreter: run {Math.min(state.done + 1, state.total)} of {state.total}…
        </span>
        <button type="button" className="underline" onClick={restore.stop}>
          Stop
        </button>
      </div>
    );
  }
  if (state.kind === 'finished' && state.failed.length > 0) {
    return (
      <div data-testid="restore-banner" data-restore-state="finished" role="status" className={`${tone} border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100`}>
        <span>
          Re-ran {state.runs} earlier run{state.runs === 1 ? '' : 's'}; {state.failed.length} did not come back the same: {state.failed.join('; ')}.
        </span>
      </div>
    );
  }
  if (missing.runs === 0 || busy) return null;
  return (
    <div data-testid="restore-banner" data-restore-state="offered" className={`${tone} border-zinc-300 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200`}>
      <span>
        This is a new interpreter: variables from {missing.runs} earlier run{missing.runs === 1 ? '' : 's'} are not in it (files in /data are).
        {missing.recordedMs > 0 ? ` Re-running them took ${formatDuration(missing.recordedMs)}.` : ''}
      </span>
      <button type="button" className="font-medium underline" onClick={() => void restore.restoreNow()}>
        Restore
      </button>
    </div>
  );
}
