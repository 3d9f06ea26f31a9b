/**
 * The state of a share page's re-run (components/chat/use-share-rerun.ts), per cell and in all,
 * and the words that sum it up for the status region. Pure.
 */
import 'client-only';
import type { RunResult } from '@/lib/runtime/protocol';

export type CellRerun =
  | { kind: 'pending' }
  /** `detail`: what the run waits for first (files written into /data, packages). */
  | { kind: 'running'; detail?: string }
  | { kind: 'same'; result: RunResult }
  | { kind: 'different'; differences: string[]; result: RunResult }
  /** Reads files kept on the owner's device that this browser does not hold: waits for the reader's own copy. */
  | { kind: 'needs-file'; names: string[] }
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
  return `Re-ran ${plural(ran, 'cell')}: ${same} same, ${different} different${notRun > 0 ? `, ${notRun} not re-run` : ''}${waitingWords(state.cells)}.`;
}

/** "; 2 wait for sales.csv: drop your copy of it on one of them", or nothing when no cell waits for a file. */
function waitingWords(cells: ReadonlyMap<string, CellRerun>): string {
  const waiting = [...cells.values()].filter((cell) => cell.kind === 'needs-file');
  if (waiting.length === 0) return '';
  const names = [...new Set(waiting.flatMap((cell) => cell.names))];
  const them = names.length === 1 ? 'your copy of it' : 'your copies of them';
  return `; ${waiting.length} wait${waiting.length === 1 ? 's' : ''} for ${names.join(', ')}: drop ${them} on ${waiting.length === 1 ? 'it' : 'one of them'}`;
}

/**
 * One re-run's bookkeeping: which cell runs, and each cell's state. Once the re-run has ended
 * (stopped or finished), nothing changes it: a run that was abandoned when the visitor pressed Stop
 * may still report a phase (its engine finished starting), and that must not make the re-run look
 * running again.
 */
export class RerunProgress {
  private readonly cells: Map<string, CellRerun>;
  private current = 0;
  private phase: RerunPhase = 'running';

  constructor(
    initial: ReadonlyMap<string, CellRerun>,
    private readonly total: number,
  ) {
    this.cells = new Map(initial);
  }

  private get ended(): boolean {
    return this.phase !== 'running';
  }

  /** The next cell starts. */
  begin(id: string): void {
    if (this.ended) return;
    this.current += 1;
    this.cells.set(id, { kind: 'running' });
  }

  /** A running cell reports what it waits for (none: it runs). */
  waiting(id: string, detail: string | undefined): void {
    if (this.ended) return;
    this.cells.set(id, detail ? { kind: 'running', detail } : { kind: 'running' });
  }

  /** A cell that reads kept files this browser does not hold: it waits for them, the others go on. */
  needsFile(id: string, names: string[]): void {
    if (this.ended) return;
    this.cells.set(id, { kind: 'needs-file', names });
  }

  /** A cell's result, compared with the recorded one. */
  settle(id: string, cell: Extract<CellRerun, { kind: 'same' | 'different' }>): void {
    if (this.ended) return;
    this.cells.set(id, cell);
  }

  /** The end: every cell that did not finish says why. */
  end(phase: Exclude<RerunPhase, 'running'>, why: string): void {
    if (this.ended) return;
    for (const [id, cell] of this.cells) if (cell.kind === 'pending' || cell.kind === 'running') this.cells.set(id, { kind: 'not-run', reason: why });
    this.phase = phase;
  }

  state(): Extract<ShareRerunState, { phase: RerunPhase }> {
    return { phase: this.phase, current: this.current, total: this.total, cells: new Map(this.cells) };
  }
}
