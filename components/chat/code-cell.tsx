'use client';

import { useMemo, useState } from 'react';
import type { RunResult } from '@/lib/runtime/protocol';
import { noticeForPerson } from '@/lib/runtime/run-failure';
import { runResultOf, type RunPart } from '@/lib/targets/run-part';
import { OutputList } from '@/components/outputs/output-list';
import { DropSameFiles } from '@/components/files/drop-same-file';
import { CodeView } from './code-view';
import { cellStatus, RunStatusLabel, statusAnnouncement } from './run-status';
import { useLiveRun, type RunStore } from './run-store';
import { useKernelContext, type UserRun } from './kernel-context';
import { CellEditor } from './cell-editor';
import { RerunMark } from './rerun-mark';
import { useFrameBatched } from './use-frame-batched';
import type { Target } from '@/lib/targets/registry';
import type { Output } from '@/lib/runtime/protocol';

function codeOf(input: unknown): string {
  if (input && typeof input === 'object' && 'code' in input && typeof input.code === 'string') return input.code;
  return '';
}

/** A run of any target (a stored run part): the code (streaming in), its status, and its outputs in order. */
export function CodeCell({ part, target, runs }: { part: RunPart; target: Target; runs: RunStore }) {
  const live = useLiveRun(runs, part.toolCallId);
  // Parsing a result with megabytes of output and images is costly: once per result, not per render.
  const parsed = useMemo(() => runResultOf({ state: part.state, output: part.output, preliminary: part.preliminary }), [part.state, part.output, part.preliminary]);
  const result: RunResult | undefined = parsed ?? live?.result;
  const status = cellStatus(part.state, result, live);
  // Code is shown while it is written and run, then collapsed (outputs stay), unless the user chose.
  const [codeChoice, setCodeChoice] = useState<boolean | null>(null);
  // "Run again" and "Edit" run the cell in this interpreter without asking the model; while that
  // runs its outputs show here, then the message holds the new code and result.
  const kernelContext = useKernelContext();
  const [rerun, setRerun] = useState<{ code: string; outputs: readonly Output[]; failed?: string } | null>(null);
  const frameOutputs = useFrameBatched((outputs: readonly Output[]) => setRerun((current) => current && { ...current, outputs: [...outputs] }));
  const [editing, setEditing] = useState(false);
  const runByUser = async (source: string, how: UserRun) => {
    if (!kernelContext) return;
    setEditing(false);
    setRerun({ code: source, outputs: [] });
    try {
      await kernelContext.runCell(target, part.toolCallId, source, how, frameOutputs);
      setRerun(null);
    } catch (error) {
      setRerun((current) => current && { ...current, failed: error instanceof Error ? error.message : String(error) });
    }
  };
  const code = rerun?.code ?? codeOf(part.input);
  const shownResult = rerun ? undefined : result;
  const notice = shownResult ? noticeForPerson(shownResult) : null;
  const outputs = rerun ? rerun.outputs : (result?.outputs ?? live?.outputs ?? []);
  const finished = status.kind === 'finished';
  const showCode = editing || (codeChoice ?? !finished);
  const canRun = finished && kernelContext?.ready === true && !rerun;

  return (
    <section aria-label={`${target.name} code cell`} data-tool-call-id={part.toolCallId} data-target={target.id} data-cell-status={finished ? result?.status : status.kind} className="my-3 overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800">
      <header className="flex items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-1.5 text-xs dark:border-zinc-800 dark:bg-zinc-900">
        <span className="font-semibold">{target.label}</span>
        <span className="sr-only" aria-live="polite" data-testid="run-announcement">
          {rerun ? (rerun.failed ? `Could not run: ${rerun.failed}` : 'Running your version.') : statusAnnouncement(status)}
        </span>
        <span data-testid="run-status">
          {rerun ? (rerun.failed ? `could not run: ${rerun.failed}` : 'running your version…') : <RunStatusLabel status={status} />}
        </span>
        {result?.userRun && !rerun && (
          <span className="rounded bg-zinc-200 px-1.5 text-[11px] text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
            {result.userRun === 'edited' ? 'edited by you' : 'run again by you'}
          </span>
        )}
        <span className="ml-auto flex shrink-0 gap-2 whitespace-nowrap">
          {finished && (
            <button type="button" className="underline" aria-expanded={showCode} onClick={() => setCodeChoice(!showCode)}>
              {showCode ? 'Hide code' : 'Show code'}
            </button>
          )}
          {canRun && !editing && (
            <>
              <button type="button" className="underline" onClick={() => void runByUser(code, 'rerun')}>
                Run again
              </button>
              <button type="button" className="underline" onClick={() => setEditing(true)}>
                Edit
              </button>
            </>
          )}
          <button type="button" className="underline" onClick={() => void navigator.clipboard.writeText(code)}>
            Copy
          </button>
        </span>
      </header>
      {editing && <CellEditor initialCode={code} onRun={(edited) => void runByUser(edited, 'edited')} onCancel={() => setEditing(false)} />}
      {showCode && !editing && (
        <div data-testid="cell-code" className="text-[13px]">
          <CodeView code={code} language={target.fence} />
        </div>
      )}
      {(outputs.length > 0 || notice || part.errorText) && (
        <div data-testid="cell-outputs" className="border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <OutputList outputs={outputs} toolCallId={rerun ? undefined : part.toolCallId} />
          {notice && <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">{notice}</p>}
          {canRun && <DropSameFiles failures={shownResult?.failures} onKept={() => void runByUser(code, 'rerun')} />}
          {part.errorText && <p className="mt-2 text-sm text-red-700">{part.errorText}</p>}
        </div>
      )}
      <RerunMark toolCallId={part.toolCallId} />
    </section>
  );
}
