/**
 * The stored run part: a code run of any target as it lives in a message (the AI SDK's
 * `tool-<name>` part). This module is the one description of it (ARCHITECTURE.md, "Targets"),
 * derived from the registry; everything that reads or writes a run part goes through it: the
 * cell, the chat route (incoming outputs), abandoned runs, the user's re-runs, restore, the share
 * page's re-run, the model's messages and notebook and script export. Server-safe.
 */
import { z } from 'zod';
import { runResultSchema, runStatusSchema, type RunResult } from '@/lib/runtime/protocol';
import { runFailureSchema } from '@/lib/runtime/run-failure';
import { CODE_PART_TYPES, targetOf, type Target } from './registry';

export const runPartTypeSchema = z.enum(CODE_PART_TYPES as [(typeof CODE_PART_TYPES)[number], ...(typeof CODE_PART_TYPES)[number][]]);
export type RunPartType = z.infer<typeof runPartTypeSchema>;

/** The AI SDK's tool part states: code streaming in, complete (to run), run (result stored), failed before running. */
export const runPartStateSchema = z.enum(['input-streaming', 'input-available', 'output-available', 'output-error']);
export type RunPartState = z.infer<typeof runPartStateSchema>;

/** The envelope every reader checks; input and output are read per need (below). */
export const runPartSchema = z.looseObject({
  type: runPartTypeSchema,
  toolCallId: z.string().min(1).max(200),
  state: runPartStateSchema,
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  errorText: z.string().optional(),
  /** A streamed partial result (AI SDK); not the run's outcome. */
  preliminary: z.boolean().optional(),
});
export type RunPart = z.infer<typeof runPartSchema>;

export const userRunSchema = z.enum(['rerun', 'edited']);

/**
 * A stored result read back. Only what readers use is checked, and outputs not at all: an output
 * kind added later, or a cap tightened since it was stored, must not make a recorded run vanish
 * from restore or an export. Outputs are validated where they are shown or sent (runResultSchema).
 */
export const recordedRunSchema = z.looseObject({
  status: runStatusSchema,
  outputs: z.array(z.unknown()),
  durationMs: z.number().nonnegative(),
  notice: z.string().optional(),
  /** Read leniently: failures that no longer read back are left out, not the run. */
  failures: z.array(runFailureSchema).optional().catch(undefined),
  restarted: z.boolean().optional(),
  userRun: userRunSchema.optional(),
});
export type RecordedRun = z.infer<typeof recordedRunSchema>;

/** A stored run part, read: its target, its code (when its input is valid) and its recorded run. */
export type ReadRunPart = {
  part: RunPart;
  target: Target;
  /** The code that ran (a user's edit replaces the model's), or null when the input is not valid (yet). */
  code: string | null;
  /** The recorded run, when the part has its final output and that output reads back as one. */
  recorded: RecordedRun | null;
};

/**
 * Parts read before, by the part object, with the field values they were read with. A message's
 * parts are replaced, not changed, when they change (the AI SDK copies a part on every update),
 * so an unchanged part is not parsed again: restore's plan reads every run of the conversation
 * before each run and on each render, and parsing them all again grew every run's round trip with
 * the conversation's length.
 */
const readParts = new WeakMap<object, { fields: ReadonlyArray<[string, unknown]>; read: ReadRunPart | null }>();

function sameFields(value: object, fields: ReadonlyArray<[string, unknown]>): boolean {
  const record = value as Record<string, unknown>;
  return Object.keys(record).length === fields.length && fields.every(([key, field]) => record[key] === field);
}

/** Reads any message part: null when it is not a code run of a known target. */
export function readRunPart(value: unknown): ReadRunPart | null {
  if (typeof value !== 'object' || value === null) return null;
  const known = readParts.get(value);
  if (known && sameFields(value, known.fields)) return known.read;
  const read = parseRunPart(value);
  readParts.set(value, { fields: Object.entries(value), read });
  return read;
}

function parseRunPart(value: object): ReadRunPart | null {
  const parsed = runPartSchema.safeParse(value);
  if (!parsed.success) return null;
  const part = parsed.data;
  const target = targetOf(part.type);
  if (!target) return null;
  const input = target.inputSchema.safeParse(part.input);
  const finished = part.state === 'output-available' && part.preliminary !== true;
  const recorded = finished ? recordedRunSchema.safeParse(part.output) : null;
  return { part, target, code: input.success ? input.data.code : null, recorded: recorded?.success ? recorded.data : null };
}

/** The part's result as the protocol defines it (every output validated), or null. */
export function runResultOf(part: { state: string; output?: unknown; preliminary?: boolean }): RunResult | null {
  if (part.state !== 'output-available' || part.preliminary === true) return null;
  const parsed = runResultSchema.safeParse(part.output);
  return parsed.success ? parsed.data : null;
}

/** Whether the part is still waiting for its run (no page will answer it once the page is gone). */
export function isPendingRunPart(value: unknown): value is RunPart {
  const parsed = runPartSchema.safeParse(value);
  return parsed.success && (parsed.data.state === 'input-available' || parsed.data.state === 'input-streaming');
}

/** The part answered with `result` (the input kept; an empty one when none arrived). */
export function withRunResult<P extends object>(part: P & { input?: unknown }, result: RunResult): P & { state: 'output-available'; output: RunResult } {
  return { ...part, state: 'output-available', input: part.input ?? {}, output: result };
}

/** The part as the user ran it last: the code that ran and its result. */
export function withUserRun<P extends object>(part: P, code: string, output: unknown): P & { input: { code: string }; output: unknown } {
  return { ...part, input: { code }, output };
}

/** What the browser may send for a run part: its result, validated as the protocol defines it. */
export const incomingRunOutputSchema = z.looseObject({
  type: runPartTypeSchema,
  toolCallId: z.string().min(1).max(200),
  state: z.literal('output-available'),
  output: runResultSchema,
});
