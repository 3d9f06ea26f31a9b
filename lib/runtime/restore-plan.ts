/**
 * Which earlier runs to replay. The interpreter dies with the page; "restore" rebuilds its state
 * in a fresh one by running the conversation's earlier successful runs again, in order. This
 * module only plans (pure, no I/O) and compares the replayed stdout with the recorded one.
 */
import { z } from 'zod';
import { runResultSchema, streamOutputSchema } from './protocol';

export type ReplayStep = {
  toolCallId: string;
  messageId: string;
  language: 'python' | 'sql';
  /** The code that actually ran: a user's edit replaces the stored input. */
  code: string;
  recordedDurationMs: number;
  /** the printed stdout recorded for this run, to compare after the replay */
  recordedStdout: string;
  edited: boolean;
};

export type RestorePlan = {
  steps: ReplayStep[];
  skipped: Array<{ toolCallId: string; reason: 'failed' | 'no-output' | 'stateless' }>;
  totalRecordedMs: number;
};

export const DEFAULT_AUTO_RESTORE_BUDGET_MS = 30_000;

const TOOL_LANGUAGES = { 'tool-python': 'python', 'tool-sql': 'sql', 'tool-graphviz': 'dot' } as const;

const toolPartSchema = z.looseObject({
  type: z.enum(['tool-python', 'tool-sql', 'tool-graphviz']),
  toolCallId: z.string().min(1),
  state: z.string(),
});

// Only what the plan uses is checked, so that an output kind added later (or one this version
// does not know) does not make a successful run vanish from the replay.
const recordedRunSchema = z.looseObject({
  state: z.literal('output-available'),
  input: z.looseObject({ code: z.string() }),
  output: runResultSchema.pick({ status: true, durationMs: true, restarted: true, userRun: true }).extend({ outputs: z.array(z.unknown()) }),
  /** A streamed partial result (AI SDK); not the run's outcome. */
  preliminary: z.boolean().optional(),
});

function recordedStdout(outputs: readonly unknown[]): string {
  let text = '';
  for (const output of outputs) {
    const stream = streamOutputSchema.safeParse(output);
    if (stream.success && stream.data.name === 'stdout') text += stream.data.text;
  }
  return text;
}

/**
 * Runs to replay, in stored order (message order, then part order), to rebuild the interpreter
 * state as it was before `beforeToolCallId` (or after everything, when omitted or not found).
 *
 * Parts that do not validate are ignored. Only runs with status `ok` are replayed; graphviz runs
 * are skipped as `stateless`, since they never touch the interpreter.
 *
 * Restart rule: `restarted: true` on a result means the interpreter was replaced after that run
 * (a kill on timeout or stop, a crash, the memory limit, or an interpreter that stopped answering
 * after an `ok` run). The next run started from an empty state, so nothing recorded up to and
 * including the restarted run bears on the state to rebuild: steps and skips so far are cleared.
 * A restarted run is never replayed itself: a failed one is listed as `failed`, and an `ok` one
 * is dropped silently, as its effects were lost with its interpreter.
 */
export function planRestore(
  messages: ReadonlyArray<{ id: string; role: string; parts: ReadonlyArray<unknown> }>,
  options: { beforeToolCallId?: string } = {},
): RestorePlan {
  let steps: ReplayStep[] = [];
  let skipped: RestorePlan['skipped'] = [];
  for (const message of messages) {
    // Tool parts only exist in assistant messages; anything else is not a run the model made.
    if (message.role !== 'assistant' || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) {
      const tool = toolPartSchema.safeParse(part);
      if (!tool.success) continue;
      const { toolCallId, type } = tool.data;
      if (toolCallId === options.beforeToolCallId) return { steps, skipped, totalRecordedMs: sum(steps) };
      const language = TOOL_LANGUAGES[type];
      if (language === 'dot') {
        skipped.push({ toolCallId, reason: 'stateless' });
        continue;
      }
      if (tool.data.state !== 'output-available' || tool.data.output === undefined || tool.data.preliminary === true) {
        skipped.push({ toolCallId, reason: 'no-output' });
        continue;
      }
      const run = recordedRunSchema.safeParse(part);
      if (!run.success) continue;
      const { output, input } = run.data;
      if (output.restarted === true) {
        steps = [];
        skipped = output.status === 'ok' ? [] : [{ toolCallId, reason: 'failed' }];
        continue;
      }
      if (output.status !== 'ok') {
        skipped.push({ toolCallId, reason: 'failed' });
        continue;
      }
      steps.push({
        toolCallId,
        messageId: message.id,
        language,
        code: input.code,
        recordedDurationMs: output.durationMs,
        recordedStdout: recordedStdout(output.outputs),
        edited: output.userRun === 'edited',
      });
    }
  }
  return { steps, skipped, totalRecordedMs: sum(steps) };
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
