/**
 * The browser side of a target (ARCHITECTURE.md, "Targets"): one interface every runner implements,
 * modelled on jupyterlite/pyodide-kernel's IKernel. Browser-only. The run pipeline (lib/targets/pipeline.client.ts) calls
 * only this; it never knows which language it is running.
 */
import type { Output, RunResult } from '@/lib/runtime/protocol';
import type { DataFile } from '@/lib/files/data-file';
import type { PackageSourceAnswer, ReplayPolicy } from './target';
import type { TargetId } from './registry';

export type RunnerState =
  | { kind: 'idle' }
  | { kind: 'starting'; detail?: string }
  | { kind: 'ready' }
  | { kind: 'busy' }
  | { kind: 'failed'; message: string };

/** Where a run is before its code runs, and when it started. */
export type RunPhase =
  | { kind: 'queued' }
  | { kind: 'loading-packages'; names: string[] }
  /** The conversation's files being written into /data/ first: their names and total size (0 when unknown). */
  | { kind: 'loading-files'; names: string[]; bytes: number }
  /** An engine the run needs starting first (DuckDB inside the interpreter): not counted in the time limit. */
  | { kind: 'starting-engine'; name: string }
  | { kind: 'running'; startedAt: number };

/** What one run gets besides its code. */
export type RunContext = {
  /** The stored run this is (its tool call id). */
  runId?: string;
  /** The conversation's earlier successful runs this run may depend on (ids, in order). */
  dependsOn?: string[];
  /** The conversation's files, to be readable under /data/<name> before the code runs. */
  files: readonly DataFile[];
  timeoutMs: number;
  /** Stop asked by the user (Stop) or the page; the runner ends the run as `interrupted`. */
  signal?: AbortSignal;
  onOutputs?: (outputs: readonly Output[]) => void;
  onPhase?: (phase: RunPhase) => void;
};

export type { ReplayPolicy } from './target';

export interface TargetRunner {
  /** Whether state (variables, tables) persists between runs. */
  readonly stateful: boolean;
  readonly replay: ReplayPolicy;
  /** Starts (or prefetches) the engine; safe to call repeatedly. */
  start(): Promise<void>;
  /** Code still being written: a head start on what it will need (Python's packages for its complete import lines). */
  prefetch?(code: string): void;
  run(code: string, context: RunContext): Promise<RunResult>;
  /**
   * Of these stored runs (tool call ids), those the runner's current engine has not executed
   * successfully: what restore would replay, and what a run that depends on them lacks. A runner
   * without state returns [].
   */
  missingRuns(runIds: readonly string[]): string[];
  /** The bytes of a file the code wrote (e.g. `/output/report.csv`), when the engine has files. */
  readFile?(path: string): Promise<Uint8Array>;
  /**
   * Whether the engine's own package source answered when the engine started ('unknown' before it
   * has), for a runner whose engine asks (R's repository); its subscribers hear when that is known.
   */
  packageSource?(): PackageSourceAnswer;
  /** A fresh engine: state is lost. */
  restart(): Promise<void>;
  dispose(): void;
  state(): RunnerState;
  subscribe(listener: (state: RunnerState) => void): () => void;
}

/** A step every run's result passes through in the pipeline, declared by the target that does it (BROWSER_TARGETS, lib/targets/runners.client.ts). */
export type PostProcessStep = (result: RunResult, using: { runners: RunnerSource; timeoutMs: number }) => Promise<RunResult>;

/** Where the pipeline finds a target's runner, and the targets' post-processing steps. */
export type RunnerSource = { get(id: TargetId): TargetRunner; postProcessSteps?(): readonly PostProcessStep[] };
