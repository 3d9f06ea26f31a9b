'use client';

/**
 * Restore: the interpreter dies with the page, the conversation does not. Before a run, the
 * conversation's earlier successful runs that this interpreter has not executed are replayed —
 * by themselves when the page was just opened and they took little time in all (ARCHITECTURE.md,
 * "The computer is not durable"), else when the user asks (the banner). The model is told in
 * one line either way (RunResult.restored / freshInterpreter).
 */
import type { UIMessage } from 'ai';
import { useCallback, useRef, useState, useSyncExternalStore } from 'react';
import type { Kernel } from '@/lib/runtime/kernel';
import { compareStdout, planRestore, shouldAutoRestore, type RestorePlan } from '@/lib/runtime/restore-plan';

export type RestoreState =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'finished'; runs: number; failed: string[] };

export type RestoreApi = {
  state: RestoreState;
  /** Earlier runs this interpreter lacks (for the banner), and their recorded time in all. */
  missing: { runs: number; recordedMs: number };
  /** Called before a run: replays what it may by itself; says what the run depends on. */
  beforeRun: (toolCallId: string) => Promise<{ dependsOn: string[]; restored?: { runs: number; failed: string[] } }>;
  restoreNow: () => Promise<void>;
  stop: () => void;
};

function missingSteps(kernel: Kernel, plan: RestorePlan) {
  const missing = new Set(kernel.missingRuns(plan.steps.map((step) => step.toolCallId)));
  // Only Python replays for now; other targets join when they run in this interpreter.
  return plan.steps.filter((step) => missing.has(step.toolCallId) && step.language === 'python');
}

export function useRestore(kernel: Kernel | null, messages: UIMessage[], messagesRef: { current: UIMessage[] }, timeoutMs: () => number): RestoreApi {
  const [state, setState] = useState<RestoreState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  // Re-read on every kernel state change: a finished run or a restart changes what is missing.
  useSyncExternalStore(
    (listener) => kernel?.subscribe(listener) ?? (() => undefined),
    () => kernel?.state,
    () => undefined,
  );

  const replay = useCallback(
    async (plan: RestorePlan) => {
      if (!kernel) return undefined;
      const steps = missingSteps(kernel, plan);
      if (steps.length === 0) return undefined;
      abort.current = new AbortController();
      setState({ kind: 'running', done: 0, total: steps.length });
      const outcome = await kernel.replay(
        steps.map((step) => ({ runId: step.toolCallId, code: step.code, recordedStdout: step.recordedStdout })),
        { timeoutMs: timeoutMs(), compare: compareStdout, signal: abort.current.signal, onProgress: (done, total) => setState({ kind: 'running', done, total }) },
      );
      abort.current = null;
      setState({ kind: 'finished', ...outcome });
      return outcome;
    },
    [kernel, timeoutMs],
  );

  const beforeRun = useCallback(
    async (toolCallId: string) => {
      const plan = planRestore(messagesRef.current, { beforeToolCallId: toolCallId });
      const dependsOn = plan.steps.map((step) => step.toolCallId);
      // By itself only in the interpreter the page opened with, not after a restart the user saw.
      const auto = kernel !== null && kernel.generation === 0 && shouldAutoRestore(plan);
      const restored = auto ? await replay(plan) : undefined;
      return { dependsOn, ...(restored ? { restored } : {}) };
    },
    [kernel, messagesRef, replay],
  );

  const restoreNow = useCallback(async () => {
    await replay(planRestore(messagesRef.current));
  }, [messagesRef, replay]);

  const plan = planRestore(messages);
  const lacking = kernel ? missingSteps(kernel, plan) : [];
  return {
    state,
    missing: { runs: lacking.length, recordedMs: lacking.reduce((sum, step) => sum + step.recordedDurationMs, 0) },
    beforeRun,
    restoreNow,
    stop: () => {
      abort.current?.abort();
      kernel?.stop();
    },
  };
}
