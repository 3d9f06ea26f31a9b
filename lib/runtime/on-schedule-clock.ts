/**
 * Time the machine gave this page's threads, as opposed to time on the wall. A timer ticks every
 * `tickMs`; each interval in which it fired on schedule is counted, and each in which it fired late
 * is dropped whole: the page was not run then (a starved machine, a stalled process, a throttled
 * background tab), and a thread of the page, an interpreter's included, may not have run either.
 *
 * An engine's kernel counts from the interrupt of a run that passed its limit: a flag Python has
 * not taken after enough of this time is C code that ignores it, since Python takes it within
 * milliseconds of its thread running; a flag not taken on a starved machine is waited for, up to a
 * wall limit (`RUN_LIMITS.interruptTakeOnScheduleMs`, `interruptTakeMs`).
 */

/** The clock and timers the counting (and the kernel's limits) use; tests give a fake machine. */
export type Scheduler = {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
};

export const browserScheduler: Scheduler = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** How often the timer ticks. */
export const ON_SCHEDULE_TICK_MS = 20;
/**
 * How late a tick may fire and still count: a loaded machine delays every timer by a few
 * milliseconds, which is not starvation; an interval longer than tick + this is dropped.
 */
export const ON_SCHEDULE_SLACK_MS = 30;

export class OnScheduleClock {
  private counted = 0;
  private last: number;
  private timer: unknown = null;

  constructor(
    private readonly scheduler: Scheduler = browserScheduler,
    private readonly tickMs = ON_SCHEDULE_TICK_MS,
    private readonly slackMs = ON_SCHEDULE_SLACK_MS,
  ) {
    this.last = scheduler.now();
    this.timer = scheduler.setTimeout(this.tick, tickMs);
  }

  /** Time since the start in which the page was run on schedule (up to the last tick). */
  get onScheduleMs(): number {
    return this.counted;
  }

  stop(): void {
    if (this.timer !== null) this.scheduler.clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly tick = (): void => {
    const now = this.scheduler.now();
    const elapsed = now - this.last;
    if (elapsed <= this.tickMs + this.slackMs) this.counted += elapsed;
    this.last = now;
    this.timer = this.scheduler.setTimeout(this.tick, this.tickMs);
  };
}
