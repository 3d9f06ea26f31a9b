'use client';

/**
 * The share page's re-run bar: the interpreter starting, "Re-running cell n of m" with Stop, then
 * the summary ("Re-ran 5 cells: 4 same, 1 different."). The summary is a status region that is
 * always in the page, so screen readers announce it when it changes.
 */
import type { EngineStatus } from '@/lib/targets/engine';
import { summaryText, type ShareRerunState } from '@/lib/share/rerun-state.client';

/** The chat page's start-up phases (components/chat/kernel-status.tsx), in words of their own. */
const PHASE_LABEL = { downloading: 'Downloading', starting: 'Starting', installing: 'Preparing' } as const;

function interpreterLabel({ name, state }: EngineStatus): { dot: string; text: string } {
  switch (state.kind) {
    case 'not-started':
      return { dot: 'bg-zinc-400', text: `${name} not started` };
    case 'starting':
      return { dot: 'bg-amber-500 animate-pulse motion-reduce:animate-none', text: state.phase === 'ready' ? `${name} ready` : `${PHASE_LABEL[state.phase]} ${name}…` };
    case 'ready':
      return { dot: 'bg-emerald-500', text: `${name} ready` };
    case 'busy':
      return { dot: 'bg-blue-500 animate-pulse motion-reduce:animate-none', text: `${name} busy` };
    case 'failed':
      return { dot: 'bg-red-500', text: `${name} failed: ${state.message}` };
  }
}

type RerunPanelProps = { state: ShareRerunState; engines: readonly EngineStatus[] | null; onStart: () => void; onStop: () => void };

/** Under the share page's header (whose one or two rows stay as they are at any width). */
export function RerunPanel({ state, engines, onStart, onStop }: RerunPanelProps) {
  const running = state.phase === 'running';
  const shown = (engines ?? []).filter((engine) => running || engine.state.kind === 'failed');
  return (
    <section aria-label="Re-run in your browser" className="border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex w-full max-w-3xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 text-sm">
        {shown.map((engine) => {
          const label = interpreterLabel(engine);
          return (
            <span key={engine.name} data-testid="kernel-status" data-kernel-state={engine.state.kind} className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
              <span aria-hidden className={`inline-block size-2 rounded-full ${label.dot}`} />
              {label.text}
            </span>
          );
        })}
        {state.phase === 'idle' && (
          <p className="min-w-0 flex-1 text-zinc-600 dark:text-zinc-400">Check these results by running the code again, here in your browser. Nothing is saved.</p>
        )}
        <p role="status" data-testid="rerun-summary" data-rerun-phase={state.phase} className={state.phase === 'idle' ? 'sr-only' : 'min-w-0 flex-1 font-medium text-zinc-800 dark:text-zinc-200'}>
          {summaryText(state)}
        </p>
        {running && state.total > 0 && (
          <progress aria-label="Re-run progress" value={Math.max(0, state.current - 1)} max={state.total} className="h-1.5 w-24 accent-blue-600" />
        )}
        {running ? (
          <button type="button" onClick={onStop} className={BUTTON}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={onStart} className={BUTTON}>
            Re-run in my browser
          </button>
        )}
      </div>
    </section>
  );
}

const BUTTON =
  'shrink-0 rounded-lg border border-zinc-300 bg-white px-3 py-1 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100 dark:hover:bg-zinc-800';
