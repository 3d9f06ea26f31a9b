'use client';

/**
 * The per-cell mark of a share page's re-run ("Re-run in my browser"): same or different from the
 * recorded outputs, in words and with an icon (never colour alone), and for a different cell the
 * new output on demand, under the recorded one. Cells read their mark from context, so the
 * message and cell components need no props for a feature only the share page has.
 */
import { createContext, useContext, useId, useState, type ReactNode } from 'react';
import { OutputList } from '@/components/outputs/output-list';
import { DropSameFiles } from '@/components/files/drop-same-file';
import { noticeForPerson } from '@/lib/runtime/run-failure';
import type { CellRerun } from '@/lib/share/rerun-state.client';

const RerunMarksContext = createContext<ReadonlyMap<string, CellRerun> | null>(null);

export const RerunMarksProvider = RerunMarksContext.Provider;

const ICON_CLASS = 'size-4 shrink-0';

function Icon({ kind }: { kind: CellRerun['kind'] }) {
  const common = { className: ICON_CLASS, viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, 'aria-hidden': true } as const;
  switch (kind) {
    case 'same':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" />
          <path d="M5 8.2l2 2 4-4.4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case 'different':
      return (
        <svg {...common}>
          <path d="M8 1.8l6.6 11.7H1.4z" strokeLinejoin="round" />
          <path d="M8 6.2v3.4M8 11.4v.1" strokeLinecap="round" />
        </svg>
      );
    case 'running':
      return (
        <svg {...common} className={`${ICON_CLASS} animate-spin motion-reduce:animate-none`}>
          <path d="M8 1.5a6.5 6.5 0 1 0 6.5 6.5" strokeLinecap="round" />
        </svg>
      );
    case 'pending':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" />
          <path d="M8 4.5V8l2.2 1.6" strokeLinecap="round" />
        </svg>
      );
    case 'not-run':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" />
          <path d="M5 8h6" strokeLinecap="round" />
        </svg>
      );
    case 'needs-file':
      return (
        <svg {...common}>
          <path d="M4 1.8h5.5L12.5 5v9.2H4z" strokeLinejoin="round" />
          <path d="M8.2 7v4.4M6.2 9.4l2 2 2-2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
  }
}

const TONE: Record<CellRerun['kind'], string> = {
  same: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-300',
  different: 'bg-amber-50 text-amber-900 dark:bg-amber-950/50 dark:text-amber-200',
  running: 'bg-zinc-50 text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300',
  pending: 'bg-zinc-50 text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400',
  'not-run': 'bg-zinc-50 text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400',
  'needs-file': 'bg-sky-50 text-sky-900 dark:bg-sky-950/50 dark:text-sky-200',
};

function label(mark: CellRerun): ReactNode {
  switch (mark.kind) {
    case 'same':
      return 'Same when re-run in your browser';
    case 'different':
      return (
        <>
          <span className="font-medium">Different when re-run in your browser:</span> {mark.differences[0]}
        </>
      );
    case 'running':
      return mark.detail ? `Re-running in your browser · ${mark.detail}` : 'Re-running in your browser…';
    case 'pending':
      return 'Waiting to re-run';
    case 'not-run':
      return `Not re-run: ${mark.reason}`;
    case 'needs-file':
      return `Waits for ${mark.names.join(', ')}, kept on its owner’s device: drop your copy to re-run this cell`;
  }
}

function NewOutput({ mark, id }: { mark: Extract<CellRerun, { kind: 'different' }>; id: string }) {
  return (
    <div id={id} data-testid="rerun-output" className="border-t border-amber-200 bg-white px-3 py-2 text-zinc-900 dark:border-amber-900/60 dark:bg-zinc-950 dark:text-zinc-100">
      <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">New output, from your browser</p>
      {mark.differences.length > 1 && (
        <ul className="mb-2 list-disc pl-5 text-xs text-zinc-700 dark:text-zinc-300">
          {mark.differences.map((difference) => (
            <li key={difference}>{difference}</li>
          ))}
        </ul>
      )}
      <OutputList outputs={mark.result.outputs} />
      {noticeForPerson(mark.result) && <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">{noticeForPerson(mark.result)}</p>}
    </div>
  );
}

/** The mark of one cell, or nothing outside a share page's re-run. */
export function RerunMark({ toolCallId }: { toolCallId: string }) {
  const marks = useContext(RerunMarksContext);
  const mark = marks?.get(toolCallId);
  const [open, setOpen] = useState(false);
  const outputId = useId();
  if (!mark) return null;
  return (
    <div data-testid="rerun-mark" data-rerun={mark.kind} className="border-t border-zinc-200 text-sm dark:border-zinc-800">
      <div className={`flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-1.5 ${TONE[mark.kind]}`}>
        <Icon kind={mark.kind} />
        <span className="min-w-0 flex-1 break-words">{label(mark)}</span>
        {mark.kind === 'different' && (
          <button type="button" aria-expanded={open} aria-controls={open ? outputId : undefined} onClick={() => setOpen(!open)} className="shrink-0 rounded text-sm font-medium underline underline-offset-2">
            {open ? 'Hide new output' : 'Show new output'}
          </button>
        )}
      </div>
      {mark.kind === 'different' && (
        <div className="px-3 pb-2">
          <DropSameFiles failures={mark.result.failures} />
        </div>
      )}
      {mark.kind === 'needs-file' && (
        <div className="px-3 pb-2">
          <DropSameFiles failures={mark.names.map((name) => ({ kind: 'dataset-missing' as const, name, reason: 'on-device' as const }))} />
        </div>
      )}
      {mark.kind === 'different' && open && <NewOutput mark={mark} id={outputId} />}
    </div>
  );
}
