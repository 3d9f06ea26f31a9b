'use client';

/**
 * Live state of the runs in this page, keyed by tool call id: the phase and the outputs as they
 * stream in. The finished result also lands in the message part (addToolOutput); this store is
 * what a cell shows before that, and it is not persisted.
 */
import { useSyncExternalStore } from 'react';
import type { RunPhase } from '@/lib/runtime/kernel';
import type { Output, RunResult } from '@/lib/runtime/protocol';

export type LiveRun = { phase: RunPhase | { kind: 'done' }; outputs: Output[]; result?: RunResult };

export class RunStore {
  private runs = new Map<string, LiveRun>();
  private listeners = new Set<() => void>();

  get(id: string): LiveRun | undefined {
    return this.runs.get(id);
  }

  update(id: string, change: (run: LiveRun) => LiveRun): void {
    const current = this.runs.get(id) ?? { phase: { kind: 'queued' }, outputs: [] };
    this.runs.set(id, change(current));
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function useLiveRun(store: RunStore, id: string): LiveRun | undefined {
  return useSyncExternalStore(
    store.subscribe,
    () => store.get(id),
    () => undefined,
  );
}
