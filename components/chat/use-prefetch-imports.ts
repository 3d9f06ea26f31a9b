'use client';

import { useEffect, useRef } from 'react';
import type { UIMessage } from 'ai';
import { readRunPart } from '@/lib/targets/run-part';
import type { RunnerSource } from '@/lib/targets/runner';

/**
 * While the model is still writing a call, start its target's engine (TargetRunner.start: a
 * worker not yet running is started, e.g. the first diagram's), and give its runner the code so
 * far (TargetRunner.prefetch: Python starts loading the packages its complete import lines
 * need), so both are usually ready when the code is complete.
 */
export function usePrefetchImports(messages: UIMessage[], runners: RunnerSource | null): void {
  const started = useRef(new Set<string>());
  const last = messages.at(-1);
  useEffect(() => {
    if (last?.role !== 'assistant' || !runners) return;
    for (const value of last.parts) {
      const run = readRunPart(value);
      if (!run || run.part.state !== 'input-streaming') continue;
      if (!started.current.has(run.target.id)) {
        started.current.add(run.target.id);
        // Only a head start: a failure to start is reported, in words, by the run that needs it.
        void Promise.resolve()
          .then(() => runners.get(run.target.id).start())
          .catch((error: unknown) => console.warn(`The ${run.target.id} runner could not start early; its first run will start it again and report why.`, error));
      }
      if (run.code !== null) runners.get(run.target.id).prefetch?.(run.code);
    }
  }, [runners, last]);
}
