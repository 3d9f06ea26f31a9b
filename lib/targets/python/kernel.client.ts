/**
 * The kernel: one Python interpreter per open conversation. Runs are queued one at a time;
 * each has a wall-clock limit, enforced in two stages (interrupt flag, then terminate and start
 * a fresh worker). See ARCHITECTURE.md, "Kernel".
 */
import 'client-only';
import { RESTARTED_NOTICE, type Output, type RunResult, type RunStatus } from '@/lib/runtime/protocol';
import { failureForPerson, failureOfError, type RunFailure } from '@/lib/runtime/run-failure';
import { failedRun } from '@/lib/runtime/failed-run';
import { RUN_LIMITS } from '@/lib/runtime/limits';
import { OutputBudget } from '@/lib/runtime/output-budget.client';
import { OnScheduleClock, browserScheduler, type Scheduler } from '@/lib/runtime/on-schedule-clock';
import { packageFailureResult } from './package-errors.client';
import { mayImport } from './may-import.client';
import { mentionsSql } from './mentions-sql.client';
import { FLUSH_EVERY_MS, type RunLanguage, type StartPhase } from './worker-api.client';
import { WorkerHandle, type WorkerConfig } from './worker-handle.client';
import { KernelDatasets } from './kernel-datasets.client';
import type { Engine, EngineStart, EngineState } from '../engine';
import type { RunPhase } from '../runner';
import type { PackageSourceAnswer as PackageSourceState } from '../target';

/** The interpreter's state, in the words every engine's status uses (lib/targets/engine.ts). */
export type KernelState = EngineState;

const SQL_START_TIMEOUT_MS = 120_000;

export type RunOptions = {
  timeoutMs?: number;
  /** Python (default) or SQL, in the same interpreter. */
  language?: RunLanguage;
  /** The stored run this is (its tool call id): recorded in the interpreter's ledger when it succeeds. */
  runId?: string;
  /** The conversation's earlier successful runs this run may depend on (their ids, in order). */
  dependsOn?: string[];
  /** The run's outputs so far, after every change (the same array, grown or with its last stream extended). */
  onOutputs?: (outputs: readonly Output[]) => void;
  onPhase?: (phase: RunPhase) => void;
};

type StopReason = 'timeout' | 'user' | 'memory';

/** A conversation file the interpreter should see under /data/<name>. */
import type { DataFile } from '@/lib/files/data-file';
type ActiveRun = { handle: WorkerHandle; stop: (reason: StopReason) => void };

const PACKAGE_LOAD_TIMEOUT_MS = 180_000;
/** How long after the interrupt flag a run that has not stopped gets a replacement started. */
const SPARE_AFTER_MS = 50;

/** When the interpreter starts (lib/targets/engine.ts, `EngineStart`). */
export type KernelStart = EngineStart;

/** What the kernel runs on: the page's clock and timers, and its workers (tests give fakes). */
export type KernelDeps = {
  scheduler?: Scheduler;
  makeHandle?: (config: WorkerConfig, onPhase: (phase: StartPhase) => void) => WorkerHandle;
};

export class Kernel implements Engine {
  private packageSourceAnswer: Promise<PackageSourceState> | null = null;
  /** The current interpreter; null until something needs one (`start: 'when-needed'`). */
  private handleValue: WorkerHandle | null = null;
  private readonly whenStarted: Promise<void>;
  private markStarted: () => void = () => undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private pendingRuns = 0;
  private active: ActiveRun | null = null;
  private stateValue: KernelState = { kind: 'not-started' };
  private readonly listeners = new Set<(state: KernelState) => void>();
  private disposed = false;
  /** The conversation's files, and which of them each interpreter has in /data/. */
  private readonly datasets = new KernelDatasets();
  /** A replacement started early, while a stopped run may still have to be killed. */
  private spare: WorkerHandle | null = null;
  /**
   * Which stored runs each interpreter has executed (successfully), so a run in an interpreter
   * lacking earlier state says so to the model, and restore knows what to replay.
   */
  private readonly ledger = new WeakMap<WorkerHandle, Set<string>>();
  /** 0 for the interpreter the page started with; +1 for each replacement (restart, limits). */
  generation = 0;
  private readonly scheduler: Scheduler;
  private readonly makeHandle: NonNullable<KernelDeps['makeHandle']>;

  constructor(
    private readonly config: WorkerConfig,
    startWhen: KernelStart = 'now',
    deps: KernelDeps = {},
  ) {
    this.scheduler = deps.scheduler ?? browserScheduler;
    this.makeHandle = deps.makeHandle ?? ((config, onPhase) => new WorkerHandle(config, onPhase));
    this.whenStarted = new Promise((resolve) => (this.markStarted = resolve));
    if (startWhen === 'now') this.start();
  }

  /** Starts the interpreter if it has not started (nothing if it has, or the kernel was disposed). */
  start(): void {
    if (this.disposed) return;
    void this.handle;
  }

  get started(): boolean {
    return this.handleValue !== null;
  }

  /** The current interpreter, started by this read if none was. */
  private get handle(): WorkerHandle {
    if (!this.handleValue) {
      this.handleValue = this.adopt(this.spawn(false), false);
      this.markStarted();
    }
    return this.handleValue;
  }

  get state(): KernelState {
    return this.stateValue;
  }

  subscribe(listener: (state: KernelState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Queues a run; the promise always resolves with a result, never rejects. When nothing else is
   * queued the run starts at once: every await before the code reaches the worker would let React
   * render the cell's new status first (a few milliseconds each) instead of in parallel with it.
   */
  run(code: string, options: RunOptions = {}): Promise<RunResult> {
    options.onPhase?.({ kind: 'queued' });
    const start = () => this.execute(code, options);
    const result = this.pendingRuns === 0 ? start() : this.queue.then(start);
    this.pendingRuns += 1;
    // The queue only orders runs; each run's failure reaches its own caller through `result`.
    this.queue = result.catch(() => undefined).finally(() => {
      this.pendingRuns -= 1;
    });
    return result;
  }

  /** Of `runIds`, those the current interpreter has not executed. */
  missingRuns(runIds: readonly string[]): string[] {
    const done = this.handleValue ? this.ledger.get(this.handleValue) : undefined;
    return runIds.filter((id) => !done?.has(id));
  }

  /** The conversation's files; written into /data/ before the next run (and after a restart). */
  setFiles(files: DataFile[]): void {
    if (this.datasets.set(files)) this.prefetchSql();
  }

  /** Starts DuckDB (the SQL engine) in the background: a dataset arrived or the model is writing SQL. */
  prefetchSql(): void {
    const handle = this.handle;
    // A head start only: the SQL run that needs DuckDB starts it again and reports why it could not, in words.
    handle.ready.then(() => handle.startSql(SQL_START_TIMEOUT_MS)).catch((error: unknown) => console.warn('DuckDB could not start early; the next SQL run will try again and say why.', error));
  }

  /** Starts loading the packages that code (possibly still incomplete) imports. */
  prefetch(code: string): void {
    if (!mayImport(code)) return;
    const handle = this.handle;
    // A head start only: the run that imports them loads them again and reports a failure in words.
    handle.ready
      .then(() => handle.loadPackagesFor(code, PACKAGE_LOAD_TIMEOUT_MS))
      .catch((error: unknown) => console.warn('Packages could not be loaded ahead of the run; the run will load them and say why if it cannot.', error));
  }

  /** Stops the running cell: interrupt first, terminate if it does not come back. */
  stop(): void {
    this.active?.stop('user');
  }

  /** A fresh interpreter on demand; a running cell ends as interrupted. */
  restart(): void {
    if (!this.handleValue) return this.start();
    if (this.active) {
      this.active.handle.terminate(RESTARTED_NOTICE);
      return; // execute() replaces the handle when it sees the termination
    }
    this.replaceHandle();
  }

  /**
   * Whether packages can be downloaded in this browser, asked once per page (the answer does not
   * change by restarting the interpreter): a page that cannot should say so, not fail on import.
   */
  packageSource(): Promise<PackageSourceState> {
    // Asked once the interpreter has started (never the reason it starts).
    this.packageSourceAnswer ??= this.whenStarted.then(() =>
      this.handle.ready.then(
        () => this.handle.probePackageSource().then((ok): PackageSourceState => (ok ? 'reachable' : 'unreachable')),
        () => 'unknown' as const,
      ),
    );
    return this.packageSourceAnswer;
  }

  async writeFile(path: string, bytes: Uint8Array): Promise<void> {
    await this.handle.ready;
    await this.handle.writeFile(path, bytes);
  }

  async readFile(path: string): Promise<Uint8Array> {
    await this.handle.ready;
    return this.handle.readFile(path);
  }

  dispose(): void {
    this.disposed = true;
    this.discardSpare();
    this.handleValue?.terminate();
    this.datasets.stopReadingAhead();
    this.listeners.clear();
  }

  /** A new worker and interpreter; it drives the kernel's state only once adopted. */
  private spawn(restarted: boolean): WorkerHandle {
    const handle: WorkerHandle = this.makeHandle(this.config, (phase) => {
      if (this.handleValue === handle && phase !== 'ready') this.setState({ kind: 'starting', phase, restarted });
    });
    return handle;
  }

  /** Makes `handle` the current interpreter; the caller assigns the returned handle. */
  private adopt(handle: WorkerHandle, restarted: boolean): WorkerHandle {
    this.setState({ kind: 'starting', phase: handle.isReady ? 'starting' : 'downloading', restarted });
    handle.ready.then(
      () => this.handleValue === handle && !this.active && this.setState({ kind: 'ready', restarted }),
      (error: Error) => this.handleValue === handle && this.setState({ kind: 'failed', message: failureForPerson(startFailure(error)) }),
    );
    return handle;
  }

  private replaceHandle(): void {
    this.handleValue?.terminate(RESTARTED_NOTICE);
    const spare = this.spare;
    this.spare = null;
    if (this.disposed) return;
    this.generation += 1;
    this.handleValue = this.adopt(spare && !spare.isTerminated ? spare : this.spawn(true), true);
  }

  /**
   * Starts a fresh interpreter while a stopped run is still inside its grace period, so that if
   * the run has to be killed, its replacement is already (nearly) ready.
   */
  private prepareSpare(): void {
    if (this.spare || this.disposed) return;
    const spare = this.spawn(true);
    // A spare that is discarded (the run came back) is terminated before anyone awaits its
    // start: without this its rejected start was an unhandled rejection in the page.
    spare.ready.catch(() => undefined);
    this.spare = spare;
  }

  private discardSpare(): void {
    this.spare?.terminate();
    this.spare = null;
  }

  private async execute(code: string, options: RunOptions): Promise<RunResult> {
    const handle = this.handle;
    const budget = new OutputBudget(this.config.caps);
    const executed = this.ledger.get(handle) ?? new Set<string>();
    this.ledger.set(handle, executed);
    const missing = (options.dependsOn ?? []).filter((id) => !executed.has(id)).length;
    const queuedAt = performance.now();
    try {
      if (!handle.isReady) await handle.ready;
    } catch (error) {
      return failedRun(startFailure(error), 0);
    }
    this.setState({ kind: 'busy' });
    let result: RunResult;
    let heapAfterRun: number | undefined;
    try {
      await this.datasets.fill(handle, options.onPhase);
      // DuckDB starts before the time limit counts: on a loaded machine its start alone can take
      // longer than a run may, and an interpreter cut off while starting it would lose its state.
      if (!handle.sqlStarted && (options.language === 'sql' || mentionsSql(code))) {
        options.onPhase?.({ kind: 'starting-engine', name: 'DuckDB' });
        await handle.startSql(SQL_START_TIMEOUT_MS); // a failure is the run's to report, in words
      }
      const needed = options.language !== 'sql' && mayImport(code) ? await handle.packagesNeeded(code) : [];
      if (needed.length > 0) options.onPhase?.({ kind: 'loading-packages', names: needed });
      // Most runs import nothing new: no second round trip to the worker for them.
      const packages = needed.length > 0 ? await handle.loadPackagesFor(code, PACKAGE_LOAD_TIMEOUT_MS) : { loaded: [], failed: [] };
      if (packages.failed.length > 0) {
        result = packageFailureResult(packages.failed, performance.now() - queuedAt);
      } else {
        ({ result, heapBytes: heapAfterRun } = await this.runWithLimits(handle, code, options, budget));
      }
    } catch (error) {
      // A file that could not be loaded is its own failure; anything else lost the interpreter.
      result = failedRun(failureOfError(error, ENGINE, (detail) => ({ kind: 'crashed', engine: ENGINE, cause: 'fault', stateLost: true, detail })), performance.now() - queuedAt, [...budget.outputs]);
    }
    this.active = null;
    // The heap is measured after the run too: memory grown without going through the capped
    // grow (a wasm module compiled by the code itself) is caught here. A finished run reports it.
    const heap = handle.isTerminated || handle.memoryLimitReached ? 0 : (heapAfterRun ?? (await this.heapBytes(handle)));
    if (handle.memoryLimitReached || (heap !== null && heap > RUN_LIMITS.maxHeapBytes)) {
      // The wasm heap never shrinks, and C code that failed to allocate may have left the
      // interpreter inconsistent: only a fresh one is trustworthy.
      this.replaceIfCurrent(handle);
      result = withFailure({ ...result, status: result.status === 'crashed' ? 'crashed' : 'error', restarted: true }, { kind: 'memory-limit', engine: ENGINE, limitBytes: RUN_LIMITS.maxHeapBytes });
    } else if (handle.isTerminated) {
      this.replaceIfCurrent(handle);
    } else if (heap === null) {
      this.replaceIfCurrent(handle);
      result = withFailure({ ...result, restarted: true }, { kind: 'crashed', engine: ENGINE, cause: 'not-answering', stateLost: true });
    }
    if (this.handleValue === handle && !handle.isTerminated) {
      this.discardSpare(); // the interpreter came back: no replacement needed
      this.setState({ kind: 'ready', restarted: false });
    }
    if (result.status === 'ok' && !result.restarted && options.runId) executed.add(options.runId);
    return missing > 0 ? { ...result, freshInterpreter: { missingRuns: missing } } : result;
  }

  private async runWithLimits(handle: WorkerHandle, code: string, options: RunOptions, budget: OutputBudget): Promise<{ result: RunResult; heapBytes?: number }> {
    const timeoutMs = options.timeoutMs ?? RUN_LIMITS.defaultTimeoutMs;
    const startedAt = performance.now();
    options.onPhase?.({ kind: 'running', startedAt: Date.now() });
    const { scheduler } = this;
    let stopReason: StopReason | null = null;
    let graceTimer: unknown = null;
    let spareTimer: unknown = null;
    /** From the interrupt: the time the page was run on schedule (lib/runtime/on-schedule-clock.ts). */
    const onSchedule: { clock?: OnScheduleClock } = {};
    const stop = (reason: StopReason) => {
      if (stopReason) return;
      stopReason = reason;
      // At the memory limit Python is already raising MemoryError; an interrupt on top would
      // replace that traceback with a KeyboardInterrupt. Code that swallows it is killed.
      const interrupted = handle.canInterrupt && reason !== 'memory';
      if (interrupted) handle.interrupt();
      const graceMs = interrupted || reason === 'memory' ? RUN_LIMITS.interruptGraceMs : 0;
      const interruptedAt = scheduler.now();
      if (interrupted) onSchedule.clock = new OnScheduleClock(scheduler);
      const outputsAtInterrupt = handle.outputMessages;
      let interruptedAgain = false;
      // Killed at the end of the grace unless Python took the interrupt and is unwinding (state
      // kept); even then, not later than the unwind limit.
      const killUnlessUnwinding = () => {
        const waited = scheduler.now() - interruptedAt;
        // Not taken yet: C code that ignores the flag, or a thread the machine has not run yet.
        // Python takes it within milliseconds of running, so once the page has been run on
        // schedule for long enough since the interrupt, it is C code; on a starved machine that
        // time is not counted, and the flag is waited for up to the wall limit.
        const onScheduleMs = onSchedule.clock?.onScheduleMs ?? 0;
        if (interrupted && !handle.interruptTaken && waited < RUN_LIMITS.interruptTakeMs && onScheduleMs < RUN_LIMITS.interruptTakeOnScheduleMs) {
          const untilCounted = RUN_LIMITS.interruptTakeOnScheduleMs - onScheduleMs;
          graceTimer = scheduler.setTimeout(killUnlessUnwinding, Math.min(RUN_LIMITS.interruptTakeMs - waited, untilCounted));
          return;
        }
        const unwinding = interrupted && handle.interruptTaken && scheduler.now() - interruptedAt < RUN_LIMITS.interruptUnwindMs;
        if (!unwinding) {
          handle.terminate(RESTARTED_NOTICE);
          return;
        }
        // Pyodide sometimes clears the flag without raising KeyboardInterrupt (measured in a bare
        // worker: 1 pure loop in 25–80 ran on). A run that took the interrupt and has sent nothing
        // since gets it once more; had it been unwinding after all, a second KeyboardInterrupt in
        // the kernel's own bookkeeping fails the call, and that interpreter is replaced below.
        if (!interruptedAgain && handle.outputMessages === outputsAtInterrupt) {
          interruptedAgain = true;
          handle.interrupt();
        }
        graceTimer = scheduler.setTimeout(killUnlessUnwinding, graceMs);
      };
      graceTimer = scheduler.setTimeout(killUnlessUnwinding, graceMs);
      // Python code stops within milliseconds of the flag; still running later means C code that
      // ignores it, and a kill at the end of the grace period. The memory limit always replaces.
      if (graceMs > 0) spareTimer = scheduler.setTimeout(() => this.prepareSpare(), reason === 'memory' ? 0 : SPARE_AFTER_MS);
    };
    this.active = { handle, stop };
    handle.onMemoryLimit(() => stop('memory'));
    const droppedBefore = handle.droppedMessages;
    const limitTimer = scheduler.setTimeout(() => stop('timeout'), timeoutMs);
    // Text printed just before a long computation is sent without waiting for the next print.
    const flushTimer = setInterval(() => {
      if (!stopReason) handle.requestFlush();
    }, FLUSH_EVERY_MS);
    const collect = (output: Output, sizeBytes: number) => {
      const changed = budget.admit(output, sizeBytes);
      if (changed) options.onOutputs?.(changed);
    };
    const notices = (...stopped: RunFailure[]) => {
      const dropped = handle.droppedMessages - droppedBefore;
      const failures = [...stopped, ...(dropped > 0 ? [{ kind: 'reply-invalid', engine: ENGINE, dropped } as const] : []), ...(budget.failure ? [budget.failure] : [])];
      return failures.length > 0 ? { failures } : {};
    };
    try {
      const { status, heapBytes } = await handle.run(code, collect, options.language);
      const durationMs = performance.now() - startedAt;
      const outputs = [...budget.outputs];
      if (status === 'interrupted' && stopReason === 'timeout') {
        return { result: { status: 'timeout', outputs, durationMs, ...notices({ kind: 'time-limit', limitMs: timeoutMs, state: 'kept' }) }, heapBytes };
      }
      const stoppedByUser: RunFailure[] = status === 'interrupted' && stopReason === 'user' ? [{ kind: 'interrupted', state: 'kept' }] : [];
      return { result: { status: status satisfies RunStatus, outputs, durationMs, ...notices(...stoppedByUser) }, heapBytes };
    } catch {
      // The worker was terminated (by the grace timer, a restart, or it died), or the call failed
      // inside the kernel: that interpreter's state is unknown, so it is replaced too.
      if (!handle.isTerminated) handle.terminate(RESTARTED_NOTICE);
      const durationMs = performance.now() - startedAt;
      const status: RunStatus = stopReason === 'timeout' ? 'timeout' : stopReason === 'user' ? 'interrupted' : 'crashed';
      const failure: RunFailure =
        stopReason === 'timeout' ? { kind: 'time-limit', limitMs: timeoutMs, state: 'lost' }
        : stopReason === 'user' ? { kind: 'interrupted', state: 'lost' }
        : stopReason === 'memory' ? { kind: 'memory-limit', engine: ENGINE, limitBytes: RUN_LIMITS.maxHeapBytes }
        : { kind: 'crashed', engine: ENGINE, cause: stopReason === null ? 'died' : 'ignored-interrupt', stateLost: true };
      return { result: { status, outputs: [...budget.outputs], durationMs, ...notices(failure), restarted: true } };
    } finally {
      handle.onMemoryLimit(null);
      scheduler.clearTimeout(limitTimer);
      clearInterval(flushTimer);
      if (graceTimer !== null) scheduler.clearTimeout(graceTimer);
      if (spareTimer !== null) scheduler.clearTimeout(spareTimer);
      onSchedule.clock?.stop();
      handle.clearInterrupt();
    }
  }

  private async heapBytes(handle: WorkerHandle): Promise<number | null> {
    try {
      return await handle.heapBytes();
    } catch {
      return null; // an unresponsive worker is replaced like an oversized one
    }
  }

  private replaceIfCurrent(handle: WorkerHandle): void {
    if (this.handleValue === handle) this.replaceHandle();
  }

  private setState(state: KernelState): void {
    this.stateValue = state;
    for (const listener of this.listeners) listener(state);
  }
}

/** The name the interpreter's failures are worded with (lib/runtime/run-failure.ts). */
const ENGINE = 'Python';

/** How a run ended, which a later finding replaces (the memory limit, an interpreter that stopped answering). */
const ENDINGS = new Set<RunFailure['kind']>(['time-limit', 'interrupted', 'crashed', 'memory-limit']);

/** The result ended by `failure` instead of how it seemed to end; what was cut or dropped is kept. */
function withFailure(result: RunResult, failure: RunFailure): RunResult {
  return { ...result, failures: [failure, ...(result.failures ?? []).filter((known) => !ENDINGS.has(known.kind))] };
}

function startFailure(error: unknown): RunFailure {
  return failureOfError(error, ENGINE, (detail) => ({ kind: 'engine-start', engine: ENGINE, detail }));
}
