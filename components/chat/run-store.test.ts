import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Output } from '@/lib/runtime/protocol';
import { RunStore } from './run-store';

const line = (text: string): Output => ({ output_type: 'stream', name: 'stdout', text });

// Under Node there are no animation frames: the store batches on its 50 ms timer instead.
describe('RunStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('batches outputs and phases into one notification', async () => {
    const store = new RunStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.update('a', (run) => ({ ...run, phase: { kind: 'running', startedAt: 0 } }));
    for (let i = 0; i < 100; i += 1) store.setOutputs('a', [line(String(i))]);
    await Promise.resolve();
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get('a')?.outputs).toEqual([line('99')]);
  });

  it("shows a run's end at once, with the outputs still pending, and only once", async () => {
    const store = new RunStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.setOutputs('a', [line('x')]);
    store.update('a', (run) => ({ ...run, phase: { kind: 'done' } }));
    await Promise.resolve();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get('a')).toMatchObject({ phase: { kind: 'done' }, outputs: [line('x')] });
    vi.advanceTimersByTime(50);
    expect(listener).toHaveBeenCalledTimes(1); // the frame's flush was superseded
  });
});
