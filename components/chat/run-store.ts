'use client';

/**
 * Live state of the runs in this page, keyed by tool call id: the phase and the outputs as they
 * stream in. The finished result also lands in the message part (addToolOutput); this store is
 * what a cell shows before that, and it is not persisted.
 *
 * Listeners hear at most once per animation frame, however many outputs arrive: a run printing
 * thousands of lines must cost the page one render per frame, not one per line. The one exception
 * is a run's end: it is shown at once (in a microtask, with whatever else is pending), not at the
 * next frame, which was up to 16 ms of every run's round trip. That is at most one render more per
 * run.
 */
import { useSyncExternalStore } from 'react';
import type { RunPhase } from '@/lib/targets/runner';
import type { Output, RunResult } from '@/lib/runtime/protocol';

export type LiveRun = { phase: RunPhase | { kind: 'done' }; outputs: readonly Output[]; result?: RunResult };

export class RunStore {
  private runs = new Map<string, LiveRun>();
  private listeners = new Set<() => void>();
  private scheduled = false;

  get(id: string): LiveRun | undefined {
    return this.runs.get(id);
  }

  update(id: string, change: (run: LiveRun) => LiveRun): void {
    const current = this.runs.get(id) ?? { phase: { kind: 'queued' }, outputs: [] };
    const next = change(current);
    this.runs.set(id, next);
    this.schedule(next.phase.kind === 'done');
  }

  /** The kernel's outputs so far (a list it keeps growing): copied once per frame, when shown. */
  setOutputs(id: string, outputs: readonly Output[]): void {
    this.pendingOutputs.set(id, outputs);
    this.schedule();
  }

  private readonly pendingOutputs = new Map<string, readonly Output[]>();
  /** Which scheduled flush is current: a flush done early makes the pending frame's a no-op. */
  private flushToken = 0;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private schedule(now = false): void {
    if (this.scheduled && !now) return;
    this.scheduled = true;
    const token = ++this.flushToken;
    const flush = () => {
      if (token !== this.flushToken) return; // superseded by an earlier flush
      this.scheduled = false;
      for (const [id, outputs] of this.pendingOutputs) {
        const current = this.runs.get(id) ?? { phase: { kind: 'queued' }, outputs: [] };
        this.runs.set(id, { ...current, outputs: [...outputs] });
      }
      this.pendingOutputs.clear();
      for (const listener of this.listeners) listener();
    };
    if (now) queueMicrotask(flush);
    // A hidden tab gets no animation frames; a timer keeps the state current there.
    else if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(flush);
    else setTimeout(flush, 50);
  }
}

export function useLiveRun(store: RunStore, id: string): LiveRun | undefined {
  return useSyncExternalStore(
    store.subscribe,
    () => store.get(id),
    () => undefined,
  );
}
