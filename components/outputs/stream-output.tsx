'use client';

import { useState } from 'react';

const COLLAPSED_LINES = 40;

/** stdout/stderr text, monospace; long output is collapsed with "Show all". */
export function StreamOutput({ name, text }: { name: 'stdout' | 'stderr'; text: string }) {
  const [expanded, setExpanded] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > COLLAPSED_LINES;
  const shown = long && !expanded ? lines.slice(0, COLLAPSED_LINES).join('\n') : text;
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
          {expanded ? 'Show less' : `Show all ${lines.length.toLocaleString()} lines`}
        </button>
      )}
    </div>
  );
}
