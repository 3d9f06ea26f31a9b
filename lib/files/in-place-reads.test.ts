import { describe, expect, it } from 'vitest';
import { holdForInPlaceRead, onInPlaceReads, readingInPlace } from './in-place-reads';

describe('in-place reads (keeps wait while a run reads a dropped file)', () => {
  it('tells a keep at once, when the first run begins and when the last one ends; a release counts once', () => {
    const seen: boolean[] = [];
    const stop = onInPlaceReads((reading) => seen.push(reading));
    expect(seen).toEqual([false]);
    const first = holdForInPlaceRead();
    const second = holdForInPlaceRead();
    expect(readingInPlace()).toBe(true);
    first();
    first(); // released twice: still one run reading
    expect(readingInPlace()).toBe(true);
    expect(seen).toEqual([false, true]);
    second();
    expect(readingInPlace()).toBe(false);
    expect(seen).toEqual([false, true, false]);
    stop();
    holdForInPlaceRead()();
    expect(seen).toEqual([false, true, false]);
  });

  it('a keep that starts during a run is told it must wait', () => {
    const release = holdForInPlaceRead();
    const seen: boolean[] = [];
    const stop = onInPlaceReads((reading) => seen.push(reading));
    release();
    stop();
    expect(seen).toEqual([true, false]);
  });
});
