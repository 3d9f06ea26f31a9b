'use client';

/**
 * Restore: engines die with the page, the conversation does not. Before a run on a stateful
 * target, the conversation's earlier successful runs that their engines have not executed are
 * replayed, in order, each on its own target (Python and SQL alike) — by themselves when the page
 * was just opened and they took little time in all (ARCHITECTURE.md, "The computer is not
 * durable"), else when the user asks (the banner). The model is told in one line either way
 * (RunResult.restored / freshInterpreter). Runs of a stateful target that cannot replay are
 * named in the outcome, with why.
 */
import type { UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DataFile } from '@/lib/files/data-file';
import { compareStdout, dependsOnFor, planRestore, shouldAutoRestore, type RestorePlan } from '@/lib/targets/restore-plan.client';
import { TARGET_LIST, TARGETS } from '@/lib/targets/registry';
import { replayRuns } from '@/lib/targets/replay.client';
import type { Prepared } from '@/lib/targets/pipeline.client';
import type { RunnerSource } from '@/lib/targets/runner';

type Restored = { runs: number; failed: string[] };

export type RestoreState =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'finished'; runs: number; failed: string[] };

export type RestoreApi = {
  state: RestoreState;
  /** Earlier runs the engines lack (for the banner), and their recorded time in all. */
  missing: { runs: number; recordedMs: number };
  /** Called before a run on `engine`: replays what it may by itself; says which of that engine's runs it depends on. */
  /** Synchronous when nothing is restored first (most runs), so the run is posted without a yield. */
  beforeRun: (toolCallId: string, engine: string) => Prepared | Promise<Prepared>;
  restoreNow: () => Promise<void>;
  stop: () => void;
};

type RestoreOptions = {
  files: () => readonly DataFile[];
  timeoutMs: () => number;
  /** Whether restore may run by itself now (only in the engines the page opened with). */
  mayAutoRestore: () => boolean;
};

function missingSteps(runners: RunnerSource, plan: RestorePlan) {
  return plan.steps.filter((step) => runners.get(step.target).missingRuns([step.toolCallId]).length > 0);
}

/** Why some runs are not replayed, in words, when their target keeps state but cannot replay. */
function notReplayed(plan: RestorePlan): string[] {
  const targets = new Set(plan.skipped.flatMap((skip) => (skip.reason === 'not-replayable' && skip.target ? [skip.target] : [])));
  return [...targets].map((id) => `${TARGETS[id].name} runs cannot be replayed, so their state is not restored`);
}

const STATEFUL_TARGETS = TARGET_LIST.filter((target) => target.stateful);

export function useRestore(runners: RunnerSource | null, messages: UIMessage[], messagesRef: { current: UIMessage[] }, options: RestoreOptions): RestoreApi {
  const [state, setState] = useState<RestoreState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });
  // Re-read on every engine state change: a finished run or a restart changes what is missing.
  const [, setVersion] = useState(0);
  useEffect(() => {
    if (!runners) return;
    const unsubscribe = STATEFUL_TARGETS.map((target) => runners.get(target.id).subscribe(() => setVersion((v) => v + 1)));
    return () => unsubscribe.forEach((stop) => stop());
  }, [runners]);

  const replaySteps = useCallback(
    async (source: RunnerSource, steps: RestorePlan['steps'], why: string[]): Promise<Restored> => {
      abort.current = new AbortController();
      setState({ kind: 'running', done: 0, total: steps.length });
      const outcome = await replayRuns(steps, source, {
        files: optionsRef.current.files(),
        timeoutMs: optionsRef.current.timeoutMs(),
        compare: compareStdout,
        signal: abort.current.signal,
        onProgress: (done, total) => setState({ kind: 'running', done, total }),
      });
      abort.current = null;
      const finished = { runs: outcome.runs, failed: [...outcome.failed, ...why] };
      setState({ kind: 'finished', ...finished });
      return finished;
    },
    [],
  );

  // Synchronous when there is nothing to replay (the interpreter has every earlier run), so a run
  // that restores nothing is posted to its engine without a yield.
  const replay = useCallback(
    (plan: RestorePlan): Restored | undefined | Promise<Restored> => {
      if (!runners) return undefined;
      const steps = missingSteps(runners, plan);
      const why = notReplayed(plan);
      if (steps.length === 0) return why.length > 0 ? { runs: 0, failed: why } : undefined;
      return replaySteps(runners, steps, why);
    },
    [runners, replaySteps],
  );

  const beforeRun = useCallback(
    (toolCallId: string, engine: string): Prepared | Promise<Prepared> => {
      const plan = planRestore(messagesRef.current, { beforeToolCallId: toolCallId });
      const dependsOn = dependsOnFor(plan, engine);
      // By itself only in the engines the page opened with, not after a restart the user saw.
      const auto = runners !== null && optionsRef.current.mayAutoRestore() && shouldAutoRestore(plan);
      const restored = auto ? replay(plan) : undefined;
      const withRestored = (done: Restored | undefined): Prepared => ({ dependsOn, ...(done ? { restored: done } : {}) });
      return restored instanceof Promise ? restored.then(withRestored) : withRestored(restored);
    },
    [runners, messagesRef, replay],
  );

  const restoreNow = useCallback(async () => {
    await replay(planRestore(messagesRef.current));
  }, [messagesRef, replay]);

  // Chat renders for every change of the interpreter's state; the plan changes only with the messages.
  const plan = useMemo(() => planRestore(messages), [messages]);
  const lacking = runners ? missingSteps(runners, plan) : [];
  return {
    state,
    missing: { runs: lacking.length, recordedMs: lacking.reduce((sum, step) => sum + step.recordedDurationMs, 0) },
    beforeRun,
    restoreNow,
    stop: () => abort.current?.abort(),
  };
}
