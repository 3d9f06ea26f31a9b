/**
 * The browser run pipeline (ARCHITECTURE.md, "Targets"): one way to run code on a target, used by
 * the chat's tool calls, "Run again"/"Edit", restore and the share page's re-run alike.
 *
 *   dispatch (the target's runner, through the TargetRunner interface only)
 *   → post-processing: output files stored, the steps targets declare (lib/targets/runners.client.ts:
 *     DOT that a run displayed drawn by the Graphviz target), a PNG of each Vega-Lite chart for
 *     the model
 *   → the RunResult that is shown, stored and sent to the model.
 *
 * Browser-only: runners start workers. It never names a language; the registry does.
 */
import 'client-only';
import { withChartImages, type ChartRenderer } from '@/lib/charts/chart-images.client';
import type { DataFile } from '@/lib/files/data-file';
import { holdForInPlaceRead, mayReadInPlace } from '@/lib/files/in-place-reads';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { failureOfError } from '@/lib/runtime/run-failure';
import { failedRun } from '@/lib/runtime/failed-run';
import { targetOf, type Target } from './registry';
import type { RunContext, TargetRunner } from './runner';
import type { RunnerSource } from './runner';

/** Stores a file a run wrote; its sha256, or null when it could not be stored. */
export type StoreFile = (file: { name: string; mediaType: string; bytes: Uint8Array }) => Promise<string | null>;

export type PipelineOptions = {
  runners: RunnerSource;
  /** The conversation's (or share's) files, readable under /data/ before the code runs. */
  files: () => readonly DataFile[];
  timeoutMs: () => number;
  /** Where output files go; absent where nothing may be stored (the share page). */
  storeFile?: StoreFile;
  /**
   * Before a run of a target with state: restore what the engine lacks, when it may, and say
   * which earlier runs this run depends on (the engine tells the model what it lacked).
   */
  beforeStatefulRun?: (runId: string, target: Target) => Prepared | Promise<Prepared>;
  /** Draws a Vega-Lite chart as a PNG (tests give their own). */
  chartRenderer?: ChartRenderer;
};

/** What a stateful run depends on, and what was restored for it first. */
export type Prepared = { dependsOn: string[]; restored?: RunResult['restored'] };

/** One run's own part of the context. */
export type CellRun = Pick<RunContext, 'runId' | 'signal' | 'onOutputs' | 'onPhase'>;

/** Runs `code` on `target` and post-processes the result. Never rejects. */
export async function runOnTarget(target: Target, code: string, run: CellRun, options: PipelineOptions): Promise<RunResult> {
  let runner: TargetRunner;
  try {
    runner = options.runners.get(target.id);
  } catch (error) {
    return unavailable(target, error);
  }
  // Awaited only when it is a promise (a restore runs first): every await before the code reaches
  // the worker lets React render the message list first, which then delays the run's reply.
  let prepared: Prepared | undefined;
  let context: RunContext;
  try {
    const preparing = runner.stateful && run.runId && options.beforeStatefulRun ? options.beforeStatefulRun(run.runId, target) : undefined;
    prepared = preparing instanceof Promise ? await preparing : preparing;
    context = { ...run, dependsOn: prepared?.dependsOn, files: options.files(), timeoutMs: options.timeoutMs() };
  } catch (error) {
    // A tool call whose run rejected would get no output, and its turn would wait for it forever.
    return failedRun(failureOfError(error, target.name), 0);
  }
  let result: RunResult;
  // A run that may read a file just dropped has it to itself, whatever its target: keeps on this
  // device wait until it ends (lib/files/in-place-reads.ts), its engine's start and queue included.
  const release = mayReadInPlace(context.files) ? holdForInPlaceRead() : null;
  try {
    result = await runner.run(code, context);
  } catch (error) {
    return unavailable(target, error);
  } finally {
    release?.();
  }
  // A step after the run that throws keeps the run's own result: the code ran, and the model reads it.
  result = await postProcess(result, runner, options).catch(() => result);
  // The restore's one line replaces "this ran in a fresh interpreter": the state was rebuilt first.
  return prepared?.restored ? { ...result, restored: prepared.restored, freshInterpreter: undefined } : result;
}

/**
 * A tool call of the model: its target from the registry and its input checked by the target's
 * schema. Null when the tool is not a target's.
 */
export async function runToolCall(toolName: string, input: unknown, run: CellRun, options: PipelineOptions): Promise<{ target: Target; result: RunResult } | null> {
  const target = targetOf(toolName);
  if (!target) return null;
  const parsed = target.inputSchema.safeParse(input);
  if (!parsed.success) {
    return { target, result: failedRun({ kind: 'input-invalid', tool: target.toolName }, 0) };
  }
  return { target, result: await runOnTarget(target, parsed.data.code, run, options) };
}

async function postProcess(result: RunResult, runner: TargetRunner, options: PipelineOptions): Promise<RunResult> {
  let processed = await withStoredFiles(result, runner, options.storeFile);
  for (const step of options.runners.postProcessSteps?.() ?? []) processed = await step(processed, { runners: options.runners, timeoutMs: options.timeoutMs() });
  return withChartImages(processed, options.chartRenderer);
}

/**
 * Files a run wrote under /output/ are read from its engine and stored, so their download chips
 * survive a reload and appear on a shared page. One that cannot be stored keeps its chip without
 * a link.
 */
async function withStoredFiles(result: RunResult, runner: TargetRunner, storeFile: StoreFile | undefined): Promise<RunResult> {
  const readFile = runner.readFile?.bind(runner);
  if (!storeFile || !readFile || !result.outputs.some((o) => o.output_type === 'file' && !o.ref)) return result;
  const outputs = await Promise.all(
    result.outputs.map(async (output): Promise<Output> => {
      if (output.output_type !== 'file' || output.ref) return output;
      try {
        const sha256 = await storeFile({ name: output.name, mediaType: output.mediaType, bytes: await readFile(`/output/${output.name}`) });
        return sha256 ? { ...output, ref: `blob:${sha256}` } : output;
      } catch {
        return output;
      }
    }),
  );
  return { ...result, outputs };
}

/** A runner that could not be made, or whose run threw (a runner's own bug: `run` never rejects for the code's failures). */
function unavailable(target: Target, error: unknown): RunResult {
  return failedRun(failureOfError(error, target.name, (detail) => ({ kind: 'engine-start', engine: target.name, detail })), 0);
}
