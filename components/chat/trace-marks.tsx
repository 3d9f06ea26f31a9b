'use client';

import { createContext, useContext, useId, useMemo, useState, type ReactNode } from 'react';
import { requestReveal } from '@/components/outputs/trace-reveal';
import { describeTrace, type AnswerTrace, type FigureTrace, type TraceSource } from '@/lib/trace';

/** The figures of the answer being rendered, by their text: what a `<trace-figure>` shows. */
const TraceMarksContext = createContext<ReadonlyMap<string, FigureTrace> | null>(null);

export function TraceMarksProvider({ trace, children }: { trace: AnswerTrace | undefined; children: ReactNode }) {
  // Same text, same figure: the trace of a number does not depend on where in the answer it is.
  const figures = useMemo(() => (trace ? new Map(trace.figures.map((figure) => [figure.raw, figure])) : null), [trace]);
  return <TraceMarksContext.Provider value={figures}>{children}</TraceMarksContext.Provider>;
}

export function revealSource(source: TraceSource): void {
  requestReveal({ toolCallId: source.toolCallId, outputIndex: source.outputIndex, location: source.location });
}

function textOf(children: ReactNode): string {
  if (typeof children === 'string' || typeof children === 'number') return String(children);
  if (Array.isArray(children)) return children.map(textOf).join('');
  return '';
}

/**
 * A figure of an answer (rendered for `<trace-figure>`, see lib/trace/rehype-figures.client.ts). Traced:
 * a quiet dotted underline; hovering or focusing says where it came from; activating shows it.
 * Untraced: an amber dotted underline, and words for screen readers. Without a trace: plain text.
 * Neither adds text to the sentence (its text content, what a selection copies, stays the answer's):
 * the screen-reader words are generated content, and the tooltip exists only while it is shown.
 */
export function TraceFigure({ children }: { children?: ReactNode }) {
  const figures = useContext(TraceMarksContext);
  const tipId = useId();
  const [open, setOpen] = useState(false);
  const raw = textOf(children);
  const figure = figures?.get(raw);
  if (!figure) return <>{children}</>;
  if (!figure.source) {
    return (
      <span
        data-trace="untraced"
        title="Not found in any output"
        className="underline decoration-amber-500 decoration-dotted decoration-2 underline-offset-4 after:sr-only after:content-['_(not_found_in_any_output)']"
      >
        {raw}
      </span>
    );
  }
  const source = figure.source;
  return (
    <span className="relative inline-block" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        data-trace="traced"
        aria-describedby={open ? tipId : undefined}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
        onClick={() => revealSource(source)}
        className="cursor-pointer rounded-sm underline decoration-emerald-600/50 decoration-dotted underline-offset-4 hover:bg-emerald-50 hover:decoration-emerald-600 dark:decoration-emerald-400/50 dark:hover:bg-emerald-950/50"
      >
        {raw}
      </button>
      {open && (
        <span
          id={tipId}
          role="tooltip"
          className="pointer-events-none absolute bottom-full left-0 z-40 mb-1 block w-max max-w-[18rem] rounded bg-zinc-900 px-2 py-1 text-xs font-normal leading-snug text-white shadow dark:bg-zinc-100 dark:text-zinc-900"
        >
          {describeTrace(figure)} Click to show it.
        </span>
      )}
    </span>
  );
}

/** Streamdown `components` for traced answers. */
export const traceComponents = { 'trace-figure': TraceFigure };
