import { describe, expect, it } from 'vitest';
import type { StartPhase } from './worker-api.client';
import { startProgress } from './start-progress.client';

describe('startProgress', () => {
  it('relays phases until init settles and drops the ones that arrive after', () => {
    const seen: StartPhase[] = [];
    const progress = startProgress((phase) => seen.push(phase));
    progress.report('downloading');
    progress.report('starting');
    progress.settle();
    progress.report('installing'); // delivered late, after init's reply
    expect(seen).toEqual(['downloading', 'starting']);
  });

  it('drops phases that are not part of the protocol', () => {
    const seen: StartPhase[] = [];
    const progress = startProgress((phase) => seen.push(phase));
    progress.report('<img src=x>');
    progress.report(42);
    expect(seen).toEqual([]);
  });
});
