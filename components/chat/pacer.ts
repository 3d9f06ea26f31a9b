/**
 * Passes on the latest of a stream of values at most once per `paceMs`: the first value of a
 * burst after `paceMs` at the latest, then the newest one each `paceMs` while they keep coming;
 * none is held for longer, and the newest is never dropped while the pacer runs.
 */
export type Pacer<T> = { push(value: T): void; cancel(): void };

type Timers = { setTimeout(run: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };

const globalTimers: Timers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createPacer<T>(paceMs: number, apply: (value: T) => void, timers: Timers = globalTimers): Pacer<T> {
  let waiting: { value: T } | null = null;
  let timer: unknown = null;
  const hand = () => {
    timer = null;
    if (waiting === null) return;
    const { value } = waiting;
    waiting = null;
    apply(value);
  };
  return {
    push(value) {
      waiting = { value };
      if (timer === null) timer = timers.setTimeout(hand, paceMs);
    },
    cancel() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      waiting = null;
    },
  };
}
