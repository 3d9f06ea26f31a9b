import { describe, expect, it } from 'vitest';
import type { RunResult } from '@/lib/runtime/protocol';
import { RerunProgress, summaryText, type CellRerun } from './rerun-state.client';

const result: RunResult = { status: 'ok', outputs: [], durationMs: 1 };
const cells = (...list: CellRerun[]) => new Map(list.map((cell, i) => [`call-${i}`, cell]));

describe('summaryText', () => {
  it('is empty before a re-run', () => {
    expect(summaryText({ phase: 'idle' })).toBe('');
  });

  it('says which cell of how many is running, and what it waits for', () => {
    expect(summaryText({ phase: 'running', current: 0, total: 2, cells: cells({ kind: 'pending' }, { kind: 'pending' }) })).toBe('Preparing the re-run…');
    expect(summaryText({ phase: 'running', current: 1, total: 2, cells: cells({ kind: 'running' }, { kind: 'pending' }) })).toBe('Re-running cell 1 of 2…');
    expect(summaryText({ phase: 'running', current: 2, total: 2, cells: cells({ kind: 'same', result }, { kind: 'running', detail: 'Loading sales.csv…' }) })).toBe('Re-running cell 2 of 2 · Loading sales.csv…');
  });

  it('counts same, different and not re-run cells when finished', () => {
    const finished = cells({ kind: 'same', result }, { kind: 'different', differences: ['x'], result }, { kind: 'same', result }, { kind: 'not-run', reason: 'it ran out of time when recorded' });
    expect(summaryText({ phase: 'finished', current: 3, total: 3, cells: finished })).toBe('Re-ran 3 cells: 2 same, 1 different, 1 not re-run.');
    expect(summaryText({ phase: 'finished', current: 1, total: 1, cells: cells({ kind: 'same', result }) })).toBe('Re-ran 1 cell: 1 same, 0 different.');
  });

  it('says how far a stopped re-run got', () => {
    expect(summaryText({ phase: 'stopped', current: 1, total: 2, cells: cells({ kind: 'not-run', reason: 'stopped' }, { kind: 'not-run', reason: 'stopped' }) })).toBe('Stopped after re-running 0 of 2 cells.');
    expect(summaryText({ phase: 'stopped', current: 2, total: 3, cells: cells({ kind: 'different', differences: ['x'], result }, { kind: 'not-run', reason: 'stopped' }) })).toBe('Stopped after re-running 1 of 3 cells: 0 same, 1 different.');
  });
});

describe('RerunProgress', () => {
  const twoCells = () => new RerunProgress(new Map<string, CellRerun>([['a', { kind: 'pending' }], ['b', { kind: 'pending' }]]), 2);

  it('follows the cells and ends with every unfinished one saying why', () => {
    const progress = twoCells();
    progress.begin('a');
    progress.waiting('a', 'Starting Python…');
    expect(summaryText(progress.state())).toBe('Re-running cell 1 of 2 · Starting Python…');
    progress.settle('a', { kind: 'same', result });
    progress.begin('b');
    progress.end('stopped', 'you stopped the re-run');
    expect(progress.state().cells.get('b')).toEqual({ kind: 'not-run', reason: 'you stopped the re-run' });
    expect(summaryText(progress.state())).toBe('Stopped after re-running 1 of 2 cells: 1 same, 0 different.');
  });

  it('stays stopped when a run abandoned by Stop reports a phase afterwards (its engine finished starting)', () => {
    const progress = twoCells();
    progress.begin('a');
    progress.waiting('a', 'Starting Python…');
    progress.end('stopped', 'you stopped the re-run');
    progress.waiting('a', undefined);
    progress.begin('b');
    progress.settle('a', { kind: 'same', result });
    expect(progress.state().phase).toBe('stopped');
    expect(summaryText(progress.state())).toBe('Stopped after re-running 0 of 2 cells.');
    expect([...progress.state().cells.values()].map((cell) => cell.kind)).toEqual(['not-run', 'not-run']);
  });
});
