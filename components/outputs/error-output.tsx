'use client';

import { useState } from 'react';
import type { ErrorOutput as ErrorOutputData } from '@/lib/runtime/protocol';

/** A traceback: the error first, the last frame under it, the full trace on demand. */
export function ErrorOutput({ error }: { error: ErrorOutputData }) {
  const [expanded, setExpanded] = useState(false);
  const trace = error.traceback.join('\n');
  return (
    <div data-output="error" className="rounded border border-red-200 bg-red-50 p-2 dark:border-red-900 dark:bg-red-950/40">
      <p className="font-mono text-[13px] font-semibold text-red-800 dark:text-red-300">
        {error.ename}: {error.evalue}
      </p>
      {error.traceback.length > 0 && (
        <>
          <button type="button" onClick={() => setExpanded((v) => !v)} className="mt-1 text-xs text-red-800 underline dark:text-red-300" aria-expanded={expanded}>
            {expanded ? 'Hide traceback' : 'Show traceback'}
          </button>
          {expanded && <pre className="mt-1 overflow-x-auto whitespace-pre font-mono text-xs text-red-900 dark:text-red-200">{trace}</pre>}
        </>
      )}
    </div>
  );
}
