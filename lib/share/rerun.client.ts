/**
 * A share page's re-run, cell by cell (components/chat/use-share-rerun.ts gives it the visitor's
 * runners): each cell of the plan (rerun-plan.client.ts) runs in order and is compared with what
 * was recorded. A cell that reads a file kept on the owner's device, which this browser does not
 * hold, is not run: it waits for the reader's own copy, and every other cell runs without it (a run
 * is given only files this browser can put under /data). Nothing here touches a runner itself.
 */
import 'client-only';
import type { DataFile } from '@/lib/files/data-file';
import type { Comparison } from './compare-outputs.client';
import type { RunResult } from '@/lib/runtime/protocol';
import type { RunPhase } from '@/lib/targets/runner';
import type { TargetId } from '@/lib/targets/registry';
import type { RerunStep } from './rerun-plan.client';
import { RerunProgress, type ShareRerunState } from './rerun-state.client';

type RunStep = Extract<RerunStep, { kind: 'run' }>;

export type ShareRerunDeps = {
  /** The share's files. */
  files: readonly DataFile[];
  /** Whether this browser holds a file kept on a device (by its SHA-256, or the salted value a share shows). */
  hasKept: (file: Extract<DataFile, { location: 'device' }>) => Promise<boolean>;
  /** Runs one cell with these files under /data; 'stopped' when the visitor stopped it. */
  run: (step: RunStep, files: readonly DataFile[], onPhase: (phase: RunPhase) => void) => Promise<RunResult | 'stopped'>;
  /** Starts a target's engine empty (after a recorded run that replaced it). */
  restart: (target: TargetId) => Promise<void>;
  compare: (recorded: RunResult, result: RunResult) => Promise<Comparison>;
  aborted: () => boolean;
  /** Python could not start here at all: every later cell would only say so again. */
  engineFailed: () => boolean;
  /** What a running cell waits for, in words (none: it runs). */
  phaseDetail?: (phase: RunPhase) => string | undefined;
  publish: (state: ShareRerunState) => void;
};

export async function rerunShare(steps: readonly RerunStep[], deps: ShareRerunDeps): Promise<void> {
  const progress = new RerunProgress(
    new Map(steps.map((step) => [step.toolCallId, step.kind === 'run' ? { kind: 'pending' } : { kind: 'not-run', reason: step.reason }])),
    steps.filter((step) => step.kind === 'run').length,
  );
  deps.publish(progress.state());
  // The files this browser can put under /data: the share's uploads, and kept files it holds itself.
  const held = await Promise.all(deps.files.map(async (file): Promise<DataFile | null> => (file.location === 'account' || (file.location === 'device' && (await deps.hasKept(file))) ? file : null)));
  const available = held.filter((file): file is DataFile => file !== null);
  const missing = new Set(deps.files.filter((file) => !available.includes(file)).map((file) => file.name));
  for (const step of steps) {
    if (deps.aborted()) break;
    if (step.kind === 'skip') {
      if (step.restartAfter) await deps.restart(step.target.id);
      continue;
    }
    const lacking = step.reads.filter((name) => missing.has(name));
    if (lacking.length > 0) {
      progress.needsFile(step.toolCallId, lacking);
      deps.publish(progress.state());
      continue;
    }
    progress.begin(step.toolCallId);
    deps.publish(progress.state());
    const result = await deps.run(step, available, (phase) => {
      progress.waiting(step.toolCallId, deps.phaseDetail?.(phase));
      deps.publish(progress.state());
    });
    if (result === 'stopped') break;
    const comparison = await deps.compare(step.recorded, result);
    progress.settle(step.toolCallId, comparison.same ? { kind: 'same', result } : { kind: 'different', differences: comparison.differences, result });
    deps.publish(progress.state());
    if (deps.engineFailed()) break;
  }
  const stopped = deps.aborted();
  progress.end(stopped ? 'stopped' : 'finished', stopped ? 'you stopped the re-run' : 'Python could not start in this browser');
  deps.publish(progress.state());
}
