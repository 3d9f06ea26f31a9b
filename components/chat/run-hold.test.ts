import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOLD_MS, RunHold } from './run-hold';

describe('the run hold', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps what was drawn until its run ends, and tells the list both times', () => {
    const hold = new RunHold<string[]>();
    const heard = vi.fn();
    hold.subscribe(heard);
    expect(hold.shown()).toBeNull();
    hold.hold('run-1', ['drawn']);
    expect(hold.shown()).toEqual(['drawn']);
    hold.release('run-2'); // another run's end releases nothing
    expect(hold.shown()).toEqual(['drawn']);
    hold.release('run-1');
    expect(hold.shown()).toBeNull();
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('lets a run that is still going be drawn after HOLD_MS', () => {
    const hold = new RunHold<string>();
    hold.hold('slow', 'before');
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(hold.shown()).toBe('before');
    vi.advanceTimersByTime(1);
    expect(hold.shown()).toBeNull();
  });

  it('holds for the latest run only; an earlier run’s timer does not end a later hold', () => {
    const hold = new RunHold<string>();
    hold.hold('first', 'a');
    vi.advanceTimersByTime(HOLD_MS - 2);
    hold.hold('second', 'b');
    vi.advanceTimersByTime(2);
    expect(hold.shown()).toBe('b');
    hold.release('first');
    expect(hold.shown()).toBe('b');
    vi.advanceTimersByTime(HOLD_MS);
    expect(hold.shown()).toBeNull();
  });
});
