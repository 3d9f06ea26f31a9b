'use client';

import type { KernelState } from '@/lib/runtime/kernel';

const PHASE_LABEL = { downloading: 'downloading…', starting: 'starting…', installing: 'preparing…', ready: 'ready' } as const;

/** A compact indicator of the interpreter's state, with Restart. */
export function KernelStatus({ state, onRestart }: { state: KernelState; onRestart: () => void }) {
  const [dot, label] =
    state.kind === 'starting'
      ? ['bg-amber-500 animate-pulse', `Python ${PHASE_LABEL[state.phase]}`]
      : state.kind === 'ready'
        ? ['bg-emerald-500', state.restarted ? 'Python ready (restarted, state lost)' : 'Python ready']
        : state.kind === 'busy'
          ? ['bg-blue-500 animate-pulse', 'Python busy']
          : ['bg-red-500', `Python failed: ${state.message}`];
  return (
    <div className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
      <span role="status" data-testid="kernel-status" data-kernel-state={state.kind} className="flex items-center gap-1.5">
        <span aria-hidden className={`inline-block size-2 rounded-full ${dot}`} />
        {label}
      </span>
      <button type="button" onClick={onRestart} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
        Restart
      </button>
    </div>
  );
}
