'use client';

import { useEffect, useRef } from 'react';
import type { UIMessage } from 'ai';
import type { Kernel } from '@/lib/runtime/kernel';

const IMPORT_LINE = /^\s*(?:import\s+[\w.]+(?:\s*,\s*[\w.]+)*|from\s+[\w.]+\s+import\b.*)/;

/** The complete import lines of code that may still be streaming in. */
export function completeImportLines(code: string): string[] {
  const complete = code.slice(0, code.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => IMPORT_LINE.test(line))
    .map((line) => line.trim());
}

/**
 * While the model is still writing a `python` call, start loading the packages its imports
 * need, so they are usually ready when the code is complete.
 */
export function usePrefetchImports(messages: UIMessage[], kernel: Kernel | null): void {
  const seen = useRef(new Set<string>());
  const last = messages.at(-1);
  useEffect(() => {
    if (!kernel || last?.role !== 'assistant') return;
    for (const part of last.parts) {
      if (part.type === 'tool-sql' && part.state === 'input-streaming' && !seen.current.has(`sql:${part.toolCallId}`)) {
        seen.current.add(`sql:${part.toolCallId}`);
        kernel.prefetchSql(); // DuckDB loads while the model writes the query
        continue;
      }
      if (part.type !== 'tool-python' || part.state !== 'input-streaming') continue;
      const input = part.input as { code?: unknown } | undefined;
      if (typeof input?.code !== 'string') continue;
      const fresh = completeImportLines(input.code).filter((line) => !seen.current.has(line));
      if (fresh.length === 0) continue;
      for (const line of fresh) seen.current.add(line);
      kernel.prefetch(fresh.join('\n'));
    }
  }, [kernel, last]);
}
