'use client';

/**
 * Holds the message list's drawing for a moment when a tool call's code is complete and its run
 * starts. The completed input and the run come together, and most runs end within a few ms: drawing
 * the tool call's new state first (a React render, then a frame) kept the run's result waiting
 * behind it on the page's thread, 5–10 ms of every run's round trip. Held, the list is drawn once,
 * with the run finished; a run still going when the hold ends (`HOLD_MS`) is drawn running then.
 */
import { useSyncExternalStore } from 'react';

/** About a frame: a longer run's cell shows "running" no later than the frame after next. */
export const HOLD_MS = 16;

export class RunHold<T> {
  private held: { runId: string; shown: T } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();

  /**
   * From the run's start (in the same task as the completed input) until `release` or HOLD_MS;
   * `shown` is what stays drawn meanwhile (what was drawn last).
   */
  hold(runId: string, shown: T): void {
    this.end();
    this.held = { runId, shown };
    this.timer = setTimeout(() => this.release(runId), HOLD_MS);
    this.notify();
  }

  /** The run ended (or never started): what was held is drawn, with its result in the same render. */
  release(runId: string): void {
    if (this.held?.runId !== runId) return;
    this.end();
    this.notify();
  }

  /** What stays drawn, while held. */
  shown = (): T | null => this.held?.shown ?? null;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private end(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.held = null;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/** `value`, except while `hold` holds: then what it holds. */
export function useHeld<T>(value: T, hold: RunHold<T>): T {
  return useSyncExternalStore(hold.subscribe, hold.shown, () => null) ?? value;
}
