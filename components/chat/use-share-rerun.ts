'use client';

/**
 * "Re-run in my browser" on a share page: the snapshot's runs, in order, in the visitor's own
 * runners (the run pipeline, lib/targets/pipeline.client.ts, as the chat uses it, without storing output
 * files), each compared with the recorded outputs
 * (lib/share/compare-outputs.client.ts). Nothing is sent to the server and nothing recorded changes:
 * the new results live in this page only.
 *
 * No engine starts until asked — most visitors only read — so the runs controller
 * (lib/targets/runs.client.ts) is made here on demand, as the chat page's is, and a fresh one for
 * every re-run (a re-run starts from an empty state, as the recorded conversation did). Each cell runs
 * through the pipeline; restore's replay is not used because it returns only a verdict on
 * stdout, and a re-run compares and shows every output. A cell that reads a file kept on the
 * owner's device waits for the reader's own copy; the others run without it (lib/share/rerun.client.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DataFile } from '@/lib/files/data-file';
import type { RunPhase } from '@/lib/targets/runner';
import { waitWords } from './run-status';
import type { RunResult } from '@/lib/runtime/protocol';
import type { TargetConfig } from '@/lib/targets/engine';
import { runOnTarget } from '@/lib/targets/pipeline.client';
import { RunsController } from '@/lib/targets/runs.client';
import { useEngineStatuses } from '@/lib/targets/use-runs.client';
import { compareOutputs } from '@/lib/share/compare-outputs.client';
import { pixelLoader } from '@/lib/share/decode-image.client';
import { deviceFileHandle } from '@/lib/files/device-files.client';
import { planRerun, type RerunStep } from '@/lib/share/rerun-plan.client';
import { rerunShare } from '@/lib/share/rerun.client';
import type { ShareRerunState } from '@/lib/share/rerun-state.client';
import { currentSettings } from './use-settings';

type Session = { runs: RunsController; abort: AbortController };

type Options = {
  messages: ReadonlyArray<{ role: string; parts: ReadonlyArray<unknown> }>;
  /** The files the share grants, as the interpreter should see them under /data/. */
  files: readonly DataFile[];
  /** The configuration the targets read (where the engines come from, the longest run). */
  config: TargetConfig;
  /** How this page reaches a stored blob (through the share). */
  blobUrl: (sha256: string) => string;
};

function phaseDetail(phase: RunPhase): string | undefined {
  return phase.kind === 'queued' || phase.kind === 'running' ? undefined : `${waitWords(phase)}…`;
}

function whenAborted(signal: AbortSignal): Promise<'stopped'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('stopped');
    else signal.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
}

function endSession(session: Session | null): void {
  if (!session) return;
  session.abort.abort();
  session.runs.dispose();
}

export function useShareRerun({ messages, files, config, blobUrl }: Options) {
  const [runs, setRuns] = useState<RunsController | null>(null);
  const engines = useEngineStatuses(runs);
  const { maxRunTimeoutMs } = config;
  const [state, setState] = useState<ShareRerunState>({ phase: 'idle' });
  const session = useRef<Session | null>(null);
  useEffect(() => () => endSession(session.current), []);

  const runStep = useCallback(
    async (step: Extract<RerunStep, { kind: 'run' }>, given: readonly DataFile[], current: Session, onPhase: (phase: RunPhase) => void): Promise<RunResult | 'stopped'> => {
      const timeoutMs = Math.min(currentSettings().timeoutMs, maxRunTimeoutMs);
      // Stop interrupts a running cell; one still waiting for its engine to start is abandoned.
      const result = await Promise.race([
        runOnTarget(step.target, step.code, { runId: step.toolCallId, signal: current.abort.signal, onPhase }, { runners: current.runs, files: () => [...given], timeoutMs: () => timeoutMs }),
        whenAborted(current.abort.signal),
      ]);
      return current.abort.signal.aborted ? 'stopped' : result;
    },
    [maxRunTimeoutMs],
  );

  const start = useCallback(async () => {
    endSession(session.current);
    const current: Session = { runs: new RunsController(config), abort: new AbortController() };
    session.current = current;
    setRuns(current.runs);

    const compareDeps = { loadPixels: pixelLoader(blobUrl) };
    await rerunShare(planRerun(messages, files), {
      files,
      hasKept: async (file) => (await deviceFileHandle(file.sha256, file.salts)) !== null,
      run: (step, given, onPhase) => runStep(step, given, current, onPhase),
      restart: (target) => current.runs.get(target).restart(),
      compare: (recorded, result) => compareOutputs(recorded, result, compareDeps),
      aborted: () => current.abort.signal.aborted,
      engineFailed: () => current.runs.statuses().some((engine) => engine.state.kind === 'failed'),
      phaseDetail,
      // A newer re-run (or the page going away) owns the state now.
      publish: (state) => {
        if (session.current === current) setState(state);
      },
    });
  }, [blobUrl, config, messages, files, runStep]);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current) return;
    // Every runner of the session sees the signal: Python is interrupted, a diagram abandoned.
    current.abort.abort();
  }, []);

  return { state, engines: runs ? engines : null, start, stop };
}
