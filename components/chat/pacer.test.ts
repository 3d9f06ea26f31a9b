import { describe, expect, it } from 'vitest';
import { createPacer } from './pacer';

/** Timers on a clock the test moves. */
function fakeTimers() {
  let now = 0;
  const due: Array<{ at: number; run: () => void; id: number }> = [];
  let next = 0;
  return {
    timers: {
      setTimeout: (run: () => void, ms: number) => {
        next += 1;
        due.push({ at: now + ms, run, id: next });
        return next;
      },
      clearTimeout: (handle: unknown) => {
        const i = due.findIndex((t) => t.id === handle);
        if (i >= 0) due.splice(i, 1);
      },
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        due.sort((a, b) => a.at - b.at);
        const first = due[0];
        if (!first || first.at > until) break;
        due.shift();
        now = first.at;
        first.run();
      }
      now = until;
    },
    pending: () => due.length,
  };
}

describe('a pacer of streamed text', () => {
  it('hands on the newest of a burst once per pace, never a value twice, and the last one always', () => {
    const clock = fakeTimers();
    const handed: string[] = [];
    const pacer = createPacer<string>(100, (v) => handed.push(v), clock.timers);
    let text = '';
    // 2,000 chunks 5 ms apart: 10 s of a model's stream.
    for (let i = 0; i < 2000; i += 1) {
      text += `w${i} `;
      pacer.push(text);
      clock.advance(5);
    }
    clock.advance(100);
    expect(handed.length).toBeLessThanOrEqual(101);
    expect(handed.length).toBeGreaterThanOrEqual(99);
    expect(handed.at(-1)).toBe(text);
    expect(new Set(handed).size).toBe(handed.length);
    // Each handed text is a longer prefix than the one before: nothing goes back.
    for (let i = 1; i < handed.length; i += 1) expect(handed[i]!.startsWith(handed[i - 1]!)).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  it('holds nothing longer than the pace, and hands on nothing after being cancelled', () => {
    const clock = fakeTimers();
    const handed: string[] = [];
    const pacer = createPacer<string>(100, (v) => handed.push(v), clock.timers);
    pacer.push('a');
    clock.advance(99);
    expect(handed).toEqual([]);
    clock.advance(1);
    expect(handed).toEqual(['a']);
    expect(clock.pending()).toBe(0);
    pacer.push('ab');
    pacer.cancel();
    clock.advance(1000);
    expect(handed).toEqual(['a']);
  });
});
