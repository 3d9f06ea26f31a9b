'use client';

import { useMemo, useState } from 'react';

const COLLAPSED_LINES = 40;

/** stdout/stderr text, monospace; long output is collapsed with "Show all". */
export function StreamOutput({ name, text }: { name: 'stdout' | 'stderr'; text: string }) {
  const [expanded, setExpanded] = useState(false);
  const { lineCount, head } = useMemo(() => collapse(text), [text]);
  const long = lineCount > COLLAPSED_LINES;
  const shown = long && !expanded ? head : text;
  return (
    <div data-output="stream" data-stream={name}>
      <pre
        className={`overflow-x-auto whitespace-pre-wrap break-words font-mono text-[13px] leading-5 ${
          name === 'stderr' ? 'text-amber-700 dark:text-amber-400' : 'text-zinc-800 dark:text-zinc-200'
        }`}
      >
        {shown}
      </pre>
      {long && (
        <button type="button" onClick={() => setExpanded((v) => !v)} className="mt-1 text-xs text-blue-700 underline dark:text-blue-400">
          {expanded ? 'Show less' : `Show all ${lineCount.toLocaleString()} lines`}
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
