/**
 * The state of a share page's re-run (components/chat/use-share-rerun.ts), per cell and in all,
 * and the words that sum it up for the status region. Pure.
 */
import type { RunResult } from '@/lib/runtime/protocol';

export type CellRerun =
  | { kind: 'pending' }
  /** `detail`: what the run waits for first (files written into /data, packages). */
  | { kind: 'running'; detail?: string }
  | { kind: 'same'; result: RunResult }
  | { kind: 'different'; differences: string[]; result: RunResult }
  | { kind: 'not-run'; reason: string };

export type RerunPhase = 'running' | 'finished' | 'stopped';

export type ShareRerunState =
  | { phase: 'idle' }
  /** `current`: the cell being re-run (1-based) out of `total` cells that run. */
  | { phase: RerunPhase; current: number; total: number; cells: ReadonlyMap<string, CellRerun> };

function count(cells: ReadonlyMap<string, CellRerun>, kind: CellRerun['kind']): number {
  let n = 0;
  for (const cell of cells.values()) if (cell.kind === kind) n += 1;
  return n;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The words of the status region; empty before the first re-run. */
export function summaryText(state: ShareRerunState): string {
  if (state.phase === 'idle') return '';
  const running = [...state.cells.values()].find((cell) => cell.kind === 'running');
  if (state.phase === 'running') {
    if (state.current === 0) return 'Preparing the re-run…';
    return `Re-running cell ${state.current} of ${state.total}${running?.kind === 'running' && running.detail ? ` · ${running.detail}` : '…'}`;
  }
  const same = count(state.cells, 'same');
  const different = count(state.cells, 'different');
  const notRun = count(state.cells, 'not-run');
  const ran = same + different;
  if (state.phase === 'stopped') return `Stopped after re-running ${ran} of ${plural(state.total, 'cell')}${ran > 0 ? `: ${same} same, ${different} different` : ''}.`;
  return `Re-ran ${plural(ran, 'cell')}: ${same} same, ${different} different${notRun > 0 ? `, ${notRun} not re-run` : ''}.`;
}
