'use client';

import { useState } from 'react';
import { checkRequest, describeSource, summaryLine, untracedFigures, type AnswerTrace } from '@/lib/trace';
import { revealSource } from './trace-marks';

/**
 * Under an answer with figures: "4 of 5 figures traced to outputs", which opens the list (each
 * traced figure shows its output), and, when some are untraced and the chat can send,
 * "Check with the model" — one click sends a follow-up; nothing is sent by itself.
 */
export function TraceSummary({ trace, onCheck }: { trace: AnswerTrace; onCheck?: (text: string) => void }) {
  // The list is made when opened: closed, it would repeat the answer's sentences in the page.
  const [open, setOpen] = useState(false);
  if (trace.figures.length === 0) return null;
  const untraced = untracedFigures(trace).length;
  return (
    <div data-testid="trace-summary" data-traced={trace.traced} data-figures={trace.figures.length} className="mt-2 flex flex-wrap items-start gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-300">
      <details className="min-w-0 flex-1" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="cursor-pointer select-none rounded hover:text-zinc-900 dark:hover:text-zinc-100">{summaryLine(trace)}</summary>
        {open && (
        <ul aria-label="Figures of this answer" className="mt-1 space-y-1 pl-4">
          {trace.figures.map((figure, i) => (
            <li key={i} className="leading-5">
              <span className="font-mono font-medium text-zinc-900 dark:text-zinc-100">{figure.raw}</span>
              {' — '}
              {figure.source ? (
                <button type="button" className="text-left underline decoration-dotted underline-offset-2 hover:text-zinc-900 dark:hover:text-zinc-100" onClick={() => figure.source && revealSource(figure.source)}>
                  {describeSource(figure.source)}
                </button>
              ) : (
                <span className="text-amber-800 dark:text-amber-300">not found in any output</span>
              )}
              <span className="block truncate text-zinc-500 dark:text-zinc-400">{figure.context}</span>
            </li>
          ))}
        </ul>
        )}
      </details>
      {untraced > 0 && onCheck && (
        <button type="button" onClick={() => onCheck(checkRequest(trace))} className="shrink-0 rounded border border-zinc-300 px-2 py-0.5 font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-100 dark:hover:bg-zinc-800">
          Check with the model
        </button>
      )}
    </div>
  );
}
