'use client';

import { useEffect, useState } from 'react';
import { formatBytes, formatDuration } from '@/lib/format';
import type { RunResult } from '@/lib/runtime/protocol';
import type { LiveRun } from './run-store';

export type CellStatus =
  | { kind: 'writing' }
  | { kind: 'queued' }
  | { kind: 'loading-packages'; names: string[] }
  | { kind: 'loading-files'; names: string[]; bytes: number }
  | { kind: 'starting-engine'; name: string }
  | { kind: 'running'; startedAt: number }
  | { kind: 'finished'; result: RunResult }
  | { kind: 'not-run' };

const FINISHED_LABEL: Record<RunResult['status'], string> = {
  ok: 'done',
  error: 'error',
  timeout: 'timed out',
  interrupted: 'interrupted',
  crashed: 'crashed',
  'page-closed': 'cut off by a reload',
};

export function cellStatus(partState: string, result: RunResult | undefined, live: LiveRun | undefined): CellStatus {
  if (result) return { kind: 'finished', result };
  if (partState === 'input-streaming') return { kind: 'writing' };
  const phase = live?.phase;
  if (!phase) return partState === 'input-available' ? { kind: 'queued' } : { kind: 'not-run' };
  if (phase.kind === 'done') return live?.result ? { kind: 'finished', result: live.result } : { kind: 'not-run' };
  return phase;
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  return <>{formatDuration(Math.max(0, now - since))}</>;
}

/**
 * What a run waits for before it runs, in words without end punctuation ("Loading sales.csv,
 * 60 MB", "Starting DuckDB"): the cell's status, its announcement and the share page's re-run.
 */
export function waitWords(phase: Extract<CellStatus, { kind: 'loading-packages' | 'loading-files' | 'starting-engine' }>): string {
  switch (phase.kind) {
    case 'loading-packages':
      return `Loading ${phase.names.join(', ')}`;
    case 'loading-files':
      return `Loading ${phase.names.join(', ')}${phase.bytes > 0 ? `, ${formatBytes(phase.bytes)}` : ''}`;
    case 'starting-engine':
      return `Starting ${phase.name}`;
  }
}

/** The status line of a code cell: queued · loading packages · running 2.4 s · done in 120 ms. */
export function RunStatusLabel({ status }: { status: CellStatus }) {
  switch (status.kind) {
    case 'writing':
      return <span className="text-zinc-500 dark:text-zinc-400">writing…</span>;
    case 'queued':
      return <span className="text-zinc-500 dark:text-zinc-400">queued</span>;
    case 'loading-packages':
    case 'loading-files':
    case 'starting-engine':
      return <span className="text-zinc-500 dark:text-zinc-400">{waitWords(status)}…</span>;
    case 'running':
      return (
        <span className="text-blue-700 dark:text-blue-400">
          running <Elapsed since={status.startedAt} />
        </span>
      );
    case 'not-run':
      return <span className="text-zinc-500 dark:text-zinc-400">not run</span>;
    case 'finished': {
      const { status: s, durationMs } = status.result;
      const tone = s === 'ok' ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400';
      return (
        <span className={tone}>
          {FINISHED_LABEL[s]} {s === 'ok' ? 'in ' : 'after '}
          {formatDuration(durationMs)}
        </span>
      );
    }
  }
}

/**
 * What a screen reader hears when a cell's status changes: one phrase per state, without the
 * running clock (which would be re-announced ten times a second).
 */
export function statusAnnouncement(status: CellStatus): string {
  switch (status.kind) {
    case 'writing':
      return 'The model is writing code.';
    case 'queued':
      return 'Code queued.';
    case 'loading-packages':
    case 'loading-files':
    case 'starting-engine':
      return `${waitWords(status)}.`;
    case 'running':
      return 'Running code.';
    case 'not-run':
      return 'Code not run.';
    case 'finished':
      return `Code ${FINISHED_LABEL[status.result.status]} ${status.result.status === 'ok' ? 'in' : 'after'} ${formatDuration(status.result.durationMs)}.`;
  }
}
