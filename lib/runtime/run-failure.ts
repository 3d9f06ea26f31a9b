/**
 * Every way a run can fail, as one tagged union (ARCHITECTURE.md, "Run failures"), after marimo's
 * `_messaging/errors.py`: each variant is a fact with its fields, never a sentence. Runners, the
 * run pipeline, restore and the share page's re-run produce them; a result carries them in
 * `failures` (lib/runtime/protocol.ts). Two functions word them: `failureForPerson` (what the
 * cell shows) and `failureForModel` (what the model reads, with what to do next). Nothing else
 * writes a failure's words, and no failure travels as the words of an `Error.message`: code that
 * must throw one throws a `RunFailureError` carrying the variant.
 *
 * Shared by workers, the page and the server (stored results are read back with this schema): zod
 * only, nothing browser- or server-only.
 */
import { z } from 'zod';

const name = z.string().min(1).max(200);
const detail = z.string().max(2_000);
const engineStateSchema = z.enum(['kept', 'lost', 'none']);

/** The output caps of a run (lib/runtime/limits.ts, OUTPUT_CAPS) an output can be cut by. */
export const outputCapSchema = z.enum(['runBytes', 'outputsPerRun', 'streamChars', 'imagesPerRun', 'imageBytes', 'chartsPerRun', 'textChars']);
export type OutputCap = z.infer<typeof outputCapSchema>;

export const runFailureSchema = z.discriminatedUnion('kind', [
  /** The code's own error: what the engine raised (a Python exception, an R error, DOT Graphviz refused). */
  z.object({
    kind: z.literal('code'),
    engine: name,
    ename: name,
    evalue: z.string().max(4_000),
    /** The 1-based line of the code the engine names, and that line's text. */
    line: z.int().positive().optional(),
    excerpt: z.string().max(300).optional(),
  }),
  /**
   * Stopped at the run's time limit. `state`: the engine stopped in time and kept its variables,
   * was replaced and lost them, or there is none to speak of (a diagram, a run that never began).
   */
  z.object({ kind: z.literal('time-limit'), limitMs: z.number().nonnegative(), state: engineStateSchema }),
  /** Stopped by the person (Stop). */
  z.object({ kind: z.literal('interrupted'), state: engineStateSchema }),
  /** The engine needed more memory than its limit and was replaced. */
  z.object({ kind: z.literal('memory-limit'), engine: name, limitBytes: z.number().positive() }),
  /**
   * The engine was lost mid-run and replaced: it died or stopped answering, it did not stop when
   * interrupted (a long C call), or its own machinery failed. Its state is gone.
   */
  z.object({ kind: z.literal('crashed'), engine: name, cause: z.enum(['died', 'not-answering', 'ignored-interrupt', 'fault']), stateLost: z.boolean(), detail: detail.optional() }),
  /** The engine could not start (or is not available in this page); the code did not run. */
  z.object({ kind: z.literal('engine-start'), engine: name, detail: detail.optional() }),
  /** Packages the code imports could not be downloaded from the package source. */
  z.object({
    kind: z.literal('package-unavailable'),
    engine: name,
    packages: z.array(z.object({ name, url: z.string().max(2_000).optional(), detail: detail.optional() })).min(1).max(50),
  }),
  /** Output past a cap of the run was cut or dropped; the rest was kept. */
  z.object({ kind: z.literal('output-capped'), caps: z.array(z.object({ cap: outputCapSchema, limit: z.number().nonnegative() })).min(1).max(10) }),
  /** One output that the engine could not make within a cap (a DOT source or drawing too large). */
  z.object({ kind: z.literal('output-refused'), engine: name, what: z.enum(['source', 'drawing']), limitChars: z.int().nonnegative(), chars: z.int().nonnegative().optional() }),
  /** Messages from the engine's worker that did not match the protocol and were dropped. */
  z.object({ kind: z.literal('reply-invalid'), engine: name, dropped: z.int().positive() }),
  /** A conversation file could not be put under /data (not served, damaged on the way, not written). */
  z.object({ kind: z.literal('dataset-missing'), name, reason: z.enum(['http', 'damaged', 'not-written', 'on-device']), status: z.int().optional() }),
  /** The model's tool call did not carry code. */
  z.object({ kind: z.literal('input-invalid'), tool: name }),
  /** The page that ran it was closed or reloaded before the run finished. */
  z.object({ kind: z.literal('page-closed') }),
]);
export type RunFailure = z.infer<typeof runFailureSchema>;
export type RunFailureKind = RunFailure['kind'];

/** A failed outcome of a step that otherwise yields a value (a drawing, a file): one shape everywhere. */
export type Failed = { ok: false; failure: RunFailure };

/** A failure thrown across an await (a file that could not be loaded); its message is for logs only. */
export class RunFailureError extends Error {
  constructor(readonly failure: RunFailure) {
    super(`run failure: ${failure.kind}`);
    this.name = 'RunFailureError';
  }
}

/** The failure an unexpected exception stands for: its own when it carries one, else the engine's fault. */
export function failureOfError(error: unknown, engine: string, otherwise: (detail: string) => RunFailure = (text) => ({ kind: 'crashed', engine, cause: 'fault', stateLost: true, detail: text })): RunFailure {
  if (error instanceof RunFailureError) return error.failure;
  return otherwise(clip(error instanceof Error ? error.message : String(error), 2_000));
}

export const RESTARTED_WORDS = 'The interpreter was restarted; variables were lost.';

const STATE_WORDS: Record<z.infer<typeof engineStateSchema>, string> = { kept: ' Variables were kept.', lost: ` ${RESTARTED_WORDS}`, none: '' };

const CAP_WORDS: Record<OutputCap, (limit: number) => string> = {
  runBytes: (limit) => `output past ${Math.round(limit / 1e6)} MB in total`,
  outputsPerRun: (limit) => `outputs past the first ${limit}`,
  streamChars: (limit) => `printed output past ${count(limit)} characters`,
  imagesPerRun: (limit) => `images past the first ${limit}`,
  imageBytes: (limit) => `images over ${Math.round(limit / 1e6)} MB`,
  chartsPerRun: (limit) => `charts past the first ${limit}`,
  textChars: (limit) => `text past ${count(limit)} characters`,
};

/** The words a person reads in the cell. */
export function failureForPerson(failure: RunFailure): string {
  switch (failure.kind) {
    case 'code':
      return `${failure.ename}: ${codeWords(failure)}`;
    case 'time-limit':
      return `The run was stopped after the time limit of ${seconds(failure.limitMs)} s.${STATE_WORDS[failure.state]}`;
    case 'interrupted':
      return `Stopped.${STATE_WORDS[failure.state]}`;
    case 'memory-limit':
      return `The run needed more memory than the interpreter's limit of ${(failure.limitBytes / 1024 ** 3).toFixed(1)} GiB and was stopped. ${RESTARTED_WORDS}`;
    case 'crashed':
      return failure.stateLost ? `${crashWords(failure)} ${RESTARTED_WORDS}` : crashWords(failure);
    case 'engine-start':
      return `${failure.engine} could not start${failure.detail ? ` (${failure.detail})` : ''}. Reload the page to try again.`;
    case 'package-unavailable':
      return `Could not load ${failure.packages.map((p) => p.name).join(', ')}: ${failure.packages.length > 1 ? 'they' : 'it'} could not be downloaded from the package source.`;
    case 'output-capped':
      return `Some output was not kept (limits of a run): ${failure.caps.map(({ cap, limit }) => CAP_WORDS[cap](limit)).join('; ')}.`;
    case 'output-refused':
      return failure.what === 'source'
        ? `The ${failure.engine} source is ${failure.chars === undefined ? 'longer than' : `${count(failure.chars)} characters long; the limit is`} ${count(failure.limitChars)} characters. Make it smaller or split it.`
        : `The drawing is larger than ${count(failure.limitChars)} characters. Make it smaller.`;
    case 'reply-invalid':
      return `${failure.dropped} message${failure.dropped === 1 ? '' : 's'} from ${failure.engine} did not match the output format and ${failure.dropped === 1 ? 'was' : 'were'} dropped.`;
    case 'dataset-missing':
      return datasetWords(failure);
    case 'input-invalid':
      return `The ${failure.tool} tool needs {"code": "<source>"}.`;
    case 'page-closed':
      return 'The page was closed or reloaded while this ran, so it did not finish.';
  }
}

/** What the model reads: the same facts, and what to do about them next. */
export function failureForModel(failure: RunFailure): string {
  switch (failure.kind) {
    case 'code':
      return `${failure.engine} raised ${failure.ename}: ${codeWords(failure)}\nFix the code and run it again.`;
    case 'time-limit':
      return `Stopped at the time limit of ${seconds(failure.limitMs)} s.${STATE_WORDS[failure.state]} Make the code faster or work on less data; do not just run it again.`;
    case 'interrupted':
      return `The user stopped this run.${STATE_WORDS[failure.state]} Do not run it again unless the user asks.`;
    case 'memory-limit':
      return `Out of memory: the run needed more than ${(failure.limitBytes / 1024 ** 3).toFixed(1)} GiB, so ${failure.engine} was replaced and variables were lost. Use less memory (smaller data, chunks, narrower types).`;
    case 'crashed':
      return failure.stateLost ? `${crashWords(failure)} ${failure.engine} was replaced and variables were lost; re-create what later code needs.` : `${crashWords(failure)} Try again once; if it fails again, tell the user.`;
    case 'engine-start':
      return `${failure.engine} could not start in the user's browser${failure.detail ? ` (${failure.detail})` : ''}; the code did not run. Do not retry it; tell the user.`;
    case 'package-unavailable':
      return `${failure.packages.map((p) => p.name).join(', ')} could not be downloaded from the package source. Do not retry; use what is installed or the standard library.`;
    case 'output-capped':
      return `Output was cut at the run's limits (${failure.caps.map(({ cap, limit }) => CAP_WORDS[cap](limit)).join('; ')}). Print or show less: summaries, heads, fewer figures.`;
    case 'output-refused':
      return failure.what === 'source'
        ? `The source is too long (limit ${count(failure.limitChars)} characters${failure.chars === undefined ? '' : `, it has ${count(failure.chars)}`}). Make it smaller or split it into several.`
        : `The drawing would be larger than ${count(failure.limitChars)} characters. Make the graph smaller.`;
    case 'reply-invalid':
      return `${failure.dropped} message(s) from ${failure.engine} did not match the output format and were dropped; the outputs shown may be incomplete.`;
    case 'dataset-missing':
      return `${datasetWords(failure)} The code did not run with it; do not retry until the user has uploaded it again.`;
    case 'input-invalid':
      return `The ${failure.tool} tool needs {"code": "<source>"}.`;
    case 'page-closed':
      return 'The page was closed or reloaded while this ran; it did not finish and has no result.';
  }
}

export function codeWords(failure: Extract<RunFailure, { kind: 'code' }>): string {
  if (!failure.line) return failure.evalue;
  return `${failure.evalue} (line ${failure.line})${failure.excerpt === undefined ? '' : `\n${failure.line} | ${failure.excerpt}`}`;
}

function crashWords(failure: Extract<RunFailure, { kind: 'crashed' }>): string {
  switch (failure.cause) {
    case 'died':
      return `${failure.engine} stopped unexpectedly${failure.detail ? ` (${failure.detail})` : ''}.`;
    case 'not-answering':
      return `${failure.engine} stopped answering.`;
    case 'ignored-interrupt':
      return `${failure.engine} did not stop when interrupted, so it was replaced.`;
    case 'fault':
      return `${failure.engine} failed${failure.detail ? `: ${failure.detail}` : '.'}`;
  }
}

function datasetWords(failure: Extract<RunFailure, { kind: 'dataset-missing' }>): string {
  switch (failure.reason) {
    case 'http':
      return `The file ${failure.name} could not be loaded${failure.status ? ` (HTTP ${failure.status})` : ''}.`;
    case 'damaged':
      return `The file ${failure.name} arrived damaged (its bytes do not match its SHA-256). Try the run again.`;
    case 'not-written':
      return `The file ${failure.name} could not be written to /data.`;
    case 'on-device':
      return `The file ${failure.name} is kept on its owner's device, not in the account, and this browser does not have it. Drop the same file here to continue.`;
  }
}

/** Whether the engine's state (variables) was lost with this failure. */
export function losesState(failure: RunFailure): boolean {
  return (failure.kind === 'crashed' && failure.stateLost) || failure.kind === 'memory-limit' || ((failure.kind === 'time-limit' || failure.kind === 'interrupted') && failure.state === 'lost');
}

/** The words of a result's failures and its free notice (a stored run's, or a page's own), for a person. */
export function noticeForPerson(result: { failures?: readonly RunFailure[]; notice?: string }): string | null {
  const words = [...(result.failures ?? []).map(failureForPerson), ...(result.notice ? [result.notice] : [])];
  return words.length > 0 ? words.join(' ') : null;
}

/** The same for the model. */
export function noticeForModel(result: { failures?: readonly RunFailure[]; notice?: string }): string | null {
  const words = [...(result.failures ?? []).map(failureForModel), ...(result.notice ? [result.notice] : [])];
  return words.length > 0 ? words.join(' ') : null;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
