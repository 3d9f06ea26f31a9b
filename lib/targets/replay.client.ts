/**
 * Restore's replay (browser-only): the planned runs (lib/targets/restore-plan.client.ts) run again, in
 * order, each on its own target's runner, so every stateful target's state is rebuilt (Python
 * and SQL alike, R too). When a replay replaces its engine (the state is gone again), the later
 * runs of that engine are skipped; another engine's go on (R's state does not depend on Python's).
 * Each replayed run's printed output is compared with the recorded one by `compare`.
 */
import 'client-only';
import type { DataFile } from '@/lib/files/data-file';
import type { ReplayStep } from '@/lib/targets/restore-plan.client';
import { failureForPerson } from '@/lib/runtime/run-failure';
import { failureOfResult } from '@/lib/runtime/failed-run';
import { TARGETS } from './registry';
import type { RunnerSource } from './runner';

export type ReplayOutcome = { runs: number; failed: string[] };

export async function replayRuns(
  steps: readonly ReplayStep[],
  runners: RunnerSource,
  options: {
    files: readonly DataFile[];
    timeoutMs: number;
    compare: (recorded: string, replayed: string) => string | null;
    onProgress?: (done: number, total: number) => void;
    signal?: AbortSignal;
  },
): Promise<ReplayOutcome> {
  const failed: string[] = [];
  let runs = 0;
  /** Engines replaced during this replay. */
  const lost = new Set<string>();
  for (const [index, step] of steps.entries()) {
    if (options.signal?.aborted) break;
    const target = TARGETS[step.target];
    if (lost.has(target.engine)) continue;
    options.onProgress?.(index, steps.length);
    const result = await runners.get(step.target).run(step.code, { runId: step.toolCallId, files: options.files, timeoutMs: options.timeoutMs, signal: options.signal });
    runs += 1;
    const stdout = result.outputs.flatMap((o) => (o.output_type === 'stream' && o.name === 'stdout' ? [o.text] : [])).join('');
    const name = `run ${index + 1} (${target.name})`;
    if (result.status !== 'ok') {
      // How it failed, in the one wording of run failures (the code's own error included).
      const failure = failureOfResult(result, target.name);
      failed.push(`${name} ended with ${result.status}${failure ? `: ${failureForPerson(failure)}` : ''}`.slice(0, 500));
    }
    else {
      const difference = options.compare(step.recordedStdout, stdout);
      if (difference) failed.push(`${name} printed something else (${difference})`);
    }
    if (result.restarted) lost.add(target.engine);
  }
  options.onProgress?.(steps.length, steps.length);
  return { runs, failed };
}
