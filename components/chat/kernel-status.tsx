'use client';

import { useEffect, useState } from 'react';
import type { EngineState, EngineStatus } from '@/lib/targets/engine';

/**
 * A run shows "busy" here once it has run this long. Most runs end within a few ms: the dot
 * flickering on each of them (and the frame drawn for it, in front of the run's result, and a
 * live region announcing "busy" then "ready") told no one anything the cell does not.
 */
export const BUSY_SHOWN_AFTER_MS = 300;

/** `state`, except a busy engine looks as it did before until it has been busy a while. */
function useShownState(state: EngineState): EngineState {
  const [idle, setIdle] = useState(state);
  const [busyShown, setBusyShown] = useState<EngineState | null>(null);
  if (state.kind !== 'busy' && idle !== state) setIdle(state);
  useEffect(() => {
    if (state.kind !== 'busy') return;
    const timer = setTimeout(() => setBusyShown(state), BUSY_SHOWN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return state.kind !== 'busy' || busyShown === state ? state : idle;
}

const PHASE_LABEL = { downloading: 'downloading…', starting: 'starting…', installing: 'preparing…', ready: 'ready' } as const;

/** A compact indicator of an engine's state (the page's interpreter), with Restart (Start, before it has started). */
export function KernelStatus({ status: { name, state: current }, onRestart }: { status: EngineStatus; onRestart: () => void }) {
  const state = useShownState(current);
  const [dot, label] =
    state.kind === 'not-started'
      ? ['bg-zinc-400', `${name} starts when you ask`]
      : state.kind === 'starting'
      ? ['bg-amber-500 animate-pulse motion-reduce:animate-none', `${name} ${PHASE_LABEL[state.phase]}`]
      : state.kind === 'ready'
        ? ['bg-emerald-500', state.restarted ? `${name} ready (restarted, state lost)` : `${name} ready`]
        : state.kind === 'busy'
          ? ['bg-blue-500 animate-pulse motion-reduce:animate-none', `${name} busy`]
          : ['bg-red-500', `${name} failed: ${state.message}`];
  return (
    <div className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
      <span role="status" data-testid="kernel-status" data-kernel-state={state.kind} className="flex items-center gap-1.5">
        <span aria-hidden className={`inline-block size-2 rounded-full ${dot}`} />
        {label}
      </span>
      <button type="button" onClick={onRestart} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
        {state.kind === 'not-started' ? 'Start' : 'Restart'}
      </button>
    </div>
  );
}
