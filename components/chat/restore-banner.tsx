'use client';

import { formatDuration } from '@/lib/format';
import { Notice, noticeButton } from '@/components/ui/notice';
import type { RestoreApi } from './use-restore';

const steps = (n: number) => `${n} earlier step${n === 1 ? '' : 's'}`;
/** An estimate in whole seconds under a minute ("6 s"): it is a guess, not a measurement. */
const estimateOf = (ms: number) => (ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : formatDuration(ms));

/**
 * Says, in one line, when this page lacks the results of earlier code (its engines started
 * afresh), and offers to reload them with an estimate from the time the code took; then shows the
 * progress and anything that did not come back the same. How it works is under Details.
 */
export function RestoreBanner({ restore, busy }: { restore: RestoreApi; busy: boolean }) {
  const { state, missing } = restore;
  if (state.kind === 'running') {
    return (
      <Notice
        testId="restore-banner"
        data={{ 'data-restore-state': 'running' }}
        tone="blue"
        summary={`Reloading earlier results: step ${Math.min(state.done + 1, state.total)} of ${state.total}…`}
        actions={
          <button type="button" className={noticeButton} onClick={restore.stop}>
            Stop
          </button>
        }
      />
    );
  }
  if (state.kind === 'finished' && state.failed.length > 0) {
    return (
      <Notice
        testId="restore-banner"
        data={{ 'data-restore-state': 'finished' }}
        tone="amber"
        summary={`Reloaded earlier results; ${state.failed.length} of ${state.runs} came back different`}
        detail={
          <p>
            Ran the code of {steps(state.runs)} again; {state.failed.length} did not come back the same: {state.failed.join('; ')}.
          </p>
        }
      />
    );
  }
  if (missing.runs === 0 || busy) return null;
  const estimate = missing.recordedMs > 0 ? ` (${estimateOf(missing.recordedMs)})` : '';
  return (
    <Notice
      testId="restore-banner"
      data={{ 'data-restore-state': 'offered' }}
      status={false}
      tone="zinc"
      summary="Earlier results aren’t loaded"
      detail={
        <p>
          This page started afresh: the variables and tables made by the code of {steps(missing.runs)} are not in memory (files in /data are). Reloading runs that code
          again, in order{missing.recordedMs > 0 ? `; it took ${formatDuration(missing.recordedMs)} last time` : ''}.
        </p>
      }
      actions={
        <button type="button" className={noticeButton} onClick={() => void restore.restoreNow()}>
          Reload them{estimate}
        </button>
      }
    />
  );
}
