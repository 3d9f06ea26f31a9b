/**
 * Which earlier runs to replay. The interpreter dies with the page; "restore" rebuilds its state
 * in a fresh one by running the conversation's earlier successful runs again, in order. This
 * module only plans (pure, no I/O) and compares the replayed stdout with the recorded one.
 */
import 'client-only';
import { streamOutputSchema } from '@/lib/runtime/protocol';
import { readRunPart } from './run-part';
import { TARGETS, type TargetId } from './registry';

export type ReplayStep = {
  toolCallId: string;
  messageId: string;
  /** The target it runs on again (a stateful one: see lib/targets/registry.ts). */
  target: TargetId;
  /** The code that actually ran: a user's edit replaces the stored input. */
  code: string;
  recordedDurationMs: number;
  /** the printed stdout recorded for this run, to compare after the replay */
  recordedStdout: string;
  edited: boolean;
};

/**
 * Why a run is not replayed: it failed, it has no result, its target keeps no state, or its
 * target keeps state but cannot replay it (its replay policy says so; restore then says why).
 */
export type SkipReason = 'failed' | 'no-output' | 'stateless' | 'not-replayable';

export type RestorePlan = {
  steps: ReplayStep[];
  skipped: Array<{ toolCallId: string; reason: SkipReason; target?: TargetId }>;
  totalRecordedMs: number;
};

export const DEFAULT_AUTO_RESTORE_BUDGET_MS = 30_000;

/** By the recorded outputs (a stored result is replaced, never changed): read once per result. */
const stdoutOf = new WeakMap<readonly unknown[], string>();

function recordedStdout(outputs: readonly unknown[]): string {
  const known = stdoutOf.get(outputs);
  if (known !== undefined) return known;
  const text = readStdout(outputs);
  stdoutOf.set(outputs, text);
  return text;
}

function readStdout(outputs: readonly unknown[]): string {
  let text = '';
  for (const output of outputs) {
    const stream = streamOutputSchema.safeParse(output);
    if (stream.success && stream.data.name === 'stdout') text += stream.data.text;
  }
  return text;
}

/**
 * Runs to replay, in stored order (message order, then part order), to rebuild the state of every
 * stateful target as it was before `beforeToolCallId` (or after everything, when omitted or not
 * found). Python and SQL runs alike: each step names its target, and restore runs it there.
 *
 * Parts that do not validate are ignored. Only runs with status `ok` are replayed; runs of
 * targets without state (Graphviz) are skipped as `stateless`.
 *
 * Restart rule: `restarted: true` on a result means the run's engine was replaced after that run
 * (a kill on timeout or stop, a crash, the memory limit, or an engine that stopped answering after
 * an `ok` run). The next run on that engine started from an empty state, so nothing recorded on
 * that engine up to and including the restarted run bears on the state to rebuild: its steps and
 * skips so far are cleared (other engines' are kept). A restarted run is never replayed itself: a
 * failed one is listed as `failed`, and an `ok` one is dropped silently, as its effects were lost
 * with its engine.
 */
export function planRestore(
  messages: ReadonlyArray<{ id: string; role: string; parts: ReadonlyArray<unknown> }>,
  options: { beforeToolCallId?: string } = {},
): RestorePlan {
  let steps: ReplayStep[] = [];
  let skipped: RestorePlan['skipped'] = [];
  /** The engine of each run seen, for the restart rule. */
  const engineOf = new Map<string, string>();
  const plan = (): RestorePlan => ({ steps, skipped, totalRecordedMs: sum(steps) });
  for (const message of messages) {
    // Tool parts only exist in assistant messages; anything else is not a run the model made.
    if (message.role !== 'assistant' || !Array.isArray(message.parts)) continue;
    for (const value of message.parts) {
      const read = readRunPart(value);
      if (!read) continue;
      const { part, target, code, recorded } = read;
      const { toolCallId } = part;
      const engine = target.engine;
      engineOf.set(toolCallId, engine);
      if (toolCallId === options.beforeToolCallId) return plan();
      if (!target.stateful) {
        skipped.push({ toolCallId, reason: 'stateless' });
        continue;
      }
      if (part.state !== 'output-available' || part.output === undefined || part.preliminary === true) {
        skipped.push({ toolCallId, reason: 'no-output' });
        continue;
      }
      if (!recorded || code === null) continue;
      if (recorded.restarted === true) {
        steps = steps.filter((step) => engineOf.get(step.toolCallId) !== engine);
        skipped = skipped.filter((skip) => engineOf.get(skip.toolCallId) !== engine);
        if (recorded.status !== 'ok') skipped.push({ toolCallId, reason: 'failed' });
        continue;
      }
      if (recorded.status !== 'ok') {
        skipped.push({ toolCallId, reason: 'failed' });
        continue;
      }
      if (target.replay !== 'replay') {
        skipped.push({ toolCallId, reason: 'not-replayable', target: target.id });
        continue;
      }
      steps.push({
        toolCallId,
        messageId: message.id,
        target: target.id,
        code,
        recordedDurationMs: recorded.durationMs,
        recordedStdout: recordedStdout(recorded.outputs),
        edited: recorded.userRun === 'edited',
      });
    }
  }
  return plan();
}

/**
 * The planned runs a run on `engine` depends on (tool call ids, in order): those of the targets
 * whose state lives in that engine. A Python run does not lack the state of R's runs, nor R's of
 * Python's: counting them would tell the model a state was lost that it never had there.
 */
export function dependsOnFor(plan: RestorePlan, engine: string): string[] {
  return plan.steps.filter((step) => TARGETS[step.target].engine === engine).map((step) => step.toolCallId);
}

function sum(steps: readonly ReplayStep[]): number {
  return steps.reduce((total, step) => total + step.recordedDurationMs, 0);
}

/**
 * Whether the plan may run by itself when a conversation is reopened: its recorded time is
 * within the budget (inclusive). Longer replays wait for the user to ask.
 */
export function shouldAutoRestore(plan: RestorePlan, budgetMs = DEFAULT_AUTO_RESTORE_BUDGET_MS): boolean {
  return plan.totalRecordedMs <= budgetMs;
}

const EXCERPT_CHARS = 80;

/** At most 80 characters of a line, starting a little before `column` when it is far in. */
function excerpt(line: string | undefined, column: number): string {
  if (line === undefined) return 'end of output';
  const from = column > EXCERPT_CHARS / 2 ? column - 20 : 0;
  let text = from > 0 ? `…${line.slice(from)}` : line;
  if (text.length > EXCERPT_CHARS) text = `${text.slice(0, EXCERPT_CHARS - 1)}…`;
  return JSON.stringify(text);
}

/** Lines without trailing whitespace, and without the blank lines at the end. */
function normalizedLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Compares a replay's printed stdout with the recorded one, ignoring trailing whitespace (at the
 * end of each line and of the text, and the kind of line ending); returns null when the same,
 * else a short description of the first difference: line number, expected vs got, each
 * truncated to 80 characters.
 */
export function compareStdout(recorded: string, replayed: string): string | null {
  const expected = normalizedLines(recorded);
  const got = normalizedLines(replayed);
  for (let i = 0; i < Math.max(expected.length, got.length); i++) {
    const a = expected[i];
    const b = got[i];
    if (a === b) continue;
    let column = 0;
    if (a !== undefined && b !== undefined) while (a[column] === b[column]) column++;
    return `line ${i + 1}: expected ${excerpt(a, column)}, got ${excerpt(b, column)}`;
  }
  return null;
}
