/**
 * Which cells of a shared snapshot "Re-run in my browser" runs again, in order. Unlike restore
 * (lib/targets/restore-plan.client.ts), which rebuilds state and so replays only successful Python runs,
 * a re-run checks what the snapshot shows: cells that ended with an error run too (their error is
 * compared), and Graphviz cells, which have no state, are re-rendered. Pure; parts that do not
 * validate are left out, as the snapshot is data from the server.
 */
import 'client-only';
import type { RunResult } from '@/lib/runtime/protocol';
import type { Target } from '@/lib/targets/registry';
import { readRunPart, runResultOf } from '@/lib/targets/run-part';

export type RerunStep =
  | { toolCallId: string; target: Target; kind: 'run'; code: string; recorded: RunResult }
  /** Not re-run; `restartAfter` when the recorded run replaced its engine (later runs on it started empty). */
  | { toolCallId: string; target: Target; kind: 'skip'; reason: string; restartAfter: boolean };

/** Why a run that did not finish is not run again: it would only be stopped the same way. */
const NOT_RERUN: Record<Exclude<RunResult['status'], 'ok' | 'error'>, string> = {
  timeout: 'it ran out of time when recorded',
  interrupted: 'it was stopped when recorded',
  crashed: 'the interpreter crashed when it was recorded',
  'page-closed': 'it was cut off when recorded',
};

export function planRerun(messages: ReadonlyArray<{ role: string; parts: ReadonlyArray<unknown> }>): RerunStep[] {
  const steps: RerunStep[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.parts)) continue;
    for (const value of message.parts) {
      const read = readRunPart(value);
      if (!read) continue;
      const { part, target, code } = read;
      const { toolCallId } = part;
      const result = runResultOf(part);
      if (!result || code === null) {
        steps.push({ toolCallId, target, kind: 'skip', reason: 'it has no recorded result', restartAfter: false });
        continue;
      }
      if (result.restarted === true) {
        // Its engine was replaced: what follows ran in an empty one, and will here too.
        const reason = result.status === 'ok' || result.status === 'error' ? 'its interpreter was replaced when recorded' : NOT_RERUN[result.status];
        steps.push({ toolCallId, target, kind: 'skip', reason, restartAfter: target.stateful });
      } else if (result.status === 'ok' || result.status === 'error') {
        steps.push({ toolCallId, target, kind: 'run', code, recorded: result });
      } else {
        steps.push({ toolCallId, target, kind: 'skip', reason: NOT_RERUN[result.status], restartAfter: false });
      }
    }
  }
  return steps;
}
