'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import type { TextHighlight } from './highlight';
import { foldCarriageReturns } from '@/lib/runtime/stream-text';

const COLLAPSED_LINES = 40;

/**
 * stdout/stderr text, monospace; long output is collapsed with "Show all". `highlight` marks a
 * traced value (expanding the text when it lies past the collapsed head), scrolls to it and
 * focuses it, so a screen reader reads it.
 */
export function StreamOutput({ name, text, highlight }: { name: 'stdout' | 'stderr'; text: string; highlight?: TextHighlight }) {
  const [expanded, setExpanded] = useState(false);
  const { lineCount, head } = useMemo(() => collapse(text), [text]);
  const long = lineCount > COLLAPSED_LINES;
  const mark = highlight && highlight.end <= text.length ? highlight : undefined;
  // A traced value past the collapsed head keeps the whole text open while it is marked.
  const open = expanded || (mark !== undefined && mark.end > head.length);
  // Text stored before the page folded progress lines shows as a terminal would show it (a traced
  // value's offsets are into the text as stored, so marked text is shown as stored).
  const stored = long && !open ? head : text;
  const shown = mark ? stored : foldCarriageReturns(stored);
  const markRef = useRef<HTMLElement>(null);
  const markSeq = mark?.seq;
  useEffect(() => {
    if (markSeq === undefined) return;
    markRef.current?.scrollIntoView({ block: 'center' });
    markRef.current?.focus({ preventScroll: true });
  }, [markSeq]);
  return (
    <div data-output="stream" data-stream={name}>
      <pre
        className={`overflow-x-auto whitespace-pre-wrap break-words font-mono text-[13px] leading-5 ${
          name === 'stderr' ? 'text-amber-700 dark:text-amber-400' : 'text-zinc-800 dark:text-zinc-200'
        }`}
      >
        {mark ? (
          <>
            {shown.slice(0, mark.start)}
            <mark ref={markRef} tabIndex={-1} data-trace-highlight="" className="rounded-sm bg-amber-200 text-zinc-950 outline-none ring-2 ring-amber-400 dark:bg-amber-300">
              {shown.slice(mark.start, mark.end)}
            </mark>
            {shown.slice(mark.end)}
          </>
        ) : (
          shown
        )}
      </pre>
      {long && (
        <button type="button" onClick={() => setExpanded(!open)} className="mt-1 text-xs text-blue-700 underline dark:text-blue-400">
          {open ? 'Show less' : `Show all ${lineCount.toLocaleString()} lines`}
        </button>
      )}
    </div>
  );
}

/** Line count and the first lines, without splitting megabytes of text into an array. */
function collapse(text: string): { lineCount: number; head: string } {
  let lineCount = 1;
  let headEnd = text.length;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (lineCount === COLLAPSED_LINES) headEnd = at;
    lineCount += 1;
  }
  return { lineCount, head: text.slice(0, headEnd) };
}
