/**
 * A machine for tests of time limits (lib/runtime/on-schedule-clock.ts): a clock and timers that
 * advance only when told, the page run on schedule or starved (every timer late).
 */
import type { Scheduler } from '@/lib/runtime/on-schedule-clock';

export class FakeMachine implements Scheduler {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId;
    this.nextId += 1;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  /** The page is run on schedule for `ms`: every timer due fires at its time. */
  run(ms: number): void {
    const end = this.time + ms;
    for (let next = this.due(end); next; next = this.due(end)) {
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    this.time = end;
  }

  /** The page is not run for `ms`: the time passes, then every timer that came due fires, late. */
  starve(ms: number): void {
    this.time += ms;
    const late = [...this.timers.entries()].filter(([, timer]) => timer.at <= this.time).sort(([, a], [, b]) => a.at - b.at);
    for (const [id, timer] of late) {
      if (!this.timers.delete(id)) continue; // cleared by an earlier one
      timer.callback();
    }
  }

  private due(end: number): { at: number; callback: () => void } | null {
    let found: [number, { at: number; callback: () => void }] | null = null;
    for (const entry of this.timers) if (entry[1].at <= end && (!found || entry[1].at < found[1].at)) found = entry;
    if (!found) return null;
    this.timers.delete(found[0]);
    return found[1];
  }
}

/**
 * Lets a fake worker's port messages through until `done` holds: they are delivered as tasks on the
 * real event loop, not on a fake machine's clock. Throws, naming `what`, when they never get there.
 */
export async function untilDelivered(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!done()) throw new Error(`${what} never got there`);
}
