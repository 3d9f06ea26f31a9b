'use client';

import { useState } from 'react';
import { runResultSchema, type RunResult } from '@/lib/runtime/protocol';
import { OutputList } from '@/components/outputs/output-list';
import { Markdown } from './markdown';
import { cellStatus, RunStatusLabel } from './run-status';
import { useLiveRun, type RunStore } from './run-store';
import { useKernelContext } from './kernel-context';
import type { Output } from '@/lib/runtime/protocol';

export type PythonToolPart = {
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
};

function codeOf(input: unknown): string {
  if (input && typeof input === 'object' && 'code' in input && typeof input.code === 'string') return input.code;
  return '';
}

/** A `python` tool call: the code (streaming in), its status, and its outputs in order. */
export function CodeCell({ part, runs }: { part: PythonToolPart; runs: RunStore }) {
  const live = useLiveRun(runs, part.toolCallId);
  const parsed = part.state === 'output-available' ? runResultSchema.safeParse(part.output) : null;
  const result: RunResult | undefined = parsed?.success ? parsed.data : live?.result;
  const status = cellStatus(part.state, result, live);
  // Code is shown while it is written and run, then collapsed (outputs stay), unless the user chose.
  const [codeChoice, setCodeChoice] = useState<boolean | null>(null);
  // "Run again" re-executes the cell in this interpreter without asking the model.
  const kernelContext = useKernelContext();
  const [rerun, setRerun] = useState<{ outputs: Output[]; result?: RunResult } | null>(null);
  const runAgain = async () => {
    const kernel = kernelContext?.kernel;
    if (!kernel) return;
    setRerun({ outputs: [] });
    const again = await kernel.run(code, {
      timeoutMs: kernelContext.timeoutMs(),
      onOutput: (output) => setRerun((current) => ({ outputs: [...(current?.outputs ?? []), output] })),
    });
    setRerun({ outputs: again.outputs, result: again });
  };
  const code = codeOf(part.input);
  const shownResult = rerun ? rerun.result : result;
  const outputs = rerun ? rerun.outputs : (result?.outputs ?? live?.outputs ?? []);
  const finished = status.kind === 'finished';
  const showCode = codeChoice ?? !finished;

  return (
    <section aria-label="Python code cell" data-cell-status={finished ? result?.status : status.kind} className="my-3 overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800">
      <header className="flex items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-1.5 text-xs dark:border-zinc-800 dark:bg-zinc-900">
        <span className="font-semibold">Python</span>
        <span aria-live="polite" data-testid="run-status">
          {rerun ? (
            rerun.result ? (
              <>
                run again: <RunStatusLabel status={{ kind: 'finished', result: rerun.result }} />
              </>
            ) : (
              'running again…'
            )
          ) : (
            <RunStatusLabel status={status} />
          )}
        </span>
        <span className="ml-auto flex gap-2">
          {finished && (
            <button type="button" className="underline" aria-expanded={showCode} onClick={() => setCodeChoice(!showCode)}>
              {showCode ? 'Hide code' : 'Show code'}
            </button>
          )}
          {finished && kernelContext?.kernel && (
            <button type="button" className="underline" onClick={() => void runAgain()}>
              Run again
            </button>
          )}
          <button type="button" className="underline" onClick={() => void navigator.clipboard.writeText(code)}>
            Copy
          </button>
        </span>
      </header>
      {showCode && (
        <div data-testid="cell-code" className="text-[13px]">
          <Markdown text={'```python\n' + code + '\n```'} streaming={part.state === 'input-streaming'} />
        </div>
      )}
      {(outputs.length > 0 || shownResult?.notice || part.errorText) && (
        <div data-testid="cell-outputs" className="border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <OutputList outputs={outputs} />
          {shownResult?.notice && <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">{shownResult.notice}</p>}
          {part.errorText && <p className="mt-2 text-sm text-red-700">{part.errorText}</p>}
        </div>
      )}
    </section>
  );
}
