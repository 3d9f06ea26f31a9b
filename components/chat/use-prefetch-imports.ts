'use client';

import { useEffect, useRef } from 'react';
import type { UIMessage } from 'ai';
import type { Kernel } from '@/lib/targets/python/kernel.client';
import { TARGETS } from '@/lib/targets/registry';
import { readRunPart } from '@/lib/targets/run-part';
import type { RunnerSource } from '@/lib/targets/runner';

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
 * While the model is still writing a call, start its target's engine (TargetRunner.start: a
 * worker not yet running is started, e.g. the first diagram's), and for a `python` call start
 * loading the packages its imports need, so both are usually ready when the code is complete.
 */
export function usePrefetchImports(messages: UIMessage[], kernel: Kernel | null, runners: RunnerSource | null): void {
  const seen = useRef(new Set<string>());
  const started = useRef(new Set<string>());
  const last = messages.at(-1);
  useEffect(() => {
    if (last?.role !== 'assistant') return;
    for (const value of last.parts) {
      const run = readRunPart(value);
      if (!run || run.part.state !== 'input-streaming') continue;
      if (runners && !started.current.has(run.target.id)) {
        started.current.add(run.target.id);
        // Only a head start: a failure to start is reported, in words, by the run that needs it.
        void Promise.resolve()
          .then(() => runners.get(run.target.id).start())
          .catch((error: unknown) => console.warn(`The ${run.target.id} runner could not start early; its first run will start it again and report why.`, error));
      }
      if (!kernel || run.target.id !== TARGETS.python.id || run.code === null) continue;
      const fresh = completeImportLines(run.code).filter((line) => !seen.current.has(line));
      if (fresh.length === 0) continue;
      for (const line of fresh) seen.current.add(line);
      kernel.prefetch(fresh.join('\n'));
    }
  }, [kernel, runners, last]);
}
