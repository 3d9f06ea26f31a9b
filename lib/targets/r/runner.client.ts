/**
 * Runs `r` cells in the page (browser only): one R worker (lib/targets/r/engine/r.worker.ts) per conversation,
 * on a private port, so R's state (variables, loaded packages, /data) persists between runs.
 *
 * - A run past its time limit, or stopped by the user, is interrupted through webR's
 *   SharedArrayBuffer channel; R stops between steps of a loop and keeps its state. If R has not
 *   come back within a grace period (code inside one long C call), the worker is terminated and
 *   the next run starts a fresh R: the result says that state was lost. The grace is counted in
 *   time the page was run on schedule (lib/runtime/on-schedule-clock.ts): on a starved machine R's
 *   thread may not have run at all, and is waited for, up to a limit on the wall.
 * - Memory: R's vector heap is capped (mem.maxVSize, set by the worker): an allocation past it
 *   fails with R's own error and the state is kept.
 * - Everything the worker sends is parsed (lib/targets/r/protocol.client.ts) and every output admitted
 *   through the page's output budget, as for Python.
 */
import 'client-only';
import type { RunContext, RunnerState, TargetRunner } from '@/lib/targets/runner';
import { connectWorker, disconnectWorker, RunnerStates, type WorkerPort } from '@/lib/targets/runner-state.client';
import type { RunnerEnv } from '@/lib/targets/runner-env';
import type { TargetConfig } from '@/lib/targets/engine';
import { dataFileKey, type DataFile } from '@/lib/files/data-file';
import type { PackageSourceAnswer as PackageSourceState } from '../target';
import { RESTARTED_NOTICE, outputSchema, type Output, type RunResult } from '@/lib/runtime/protocol';
import { failureForPerson, failureOfError, RunFailureError, type RunFailure } from '@/lib/runtime/run-failure';
import { failedRun, statusOfFailure } from '@/lib/runtime/failed-run';
import { OUTPUT_CAPS, RUN_LIMITS } from '@/lib/runtime/limits';
import { OutputBudget } from '@/lib/runtime/output-budget.client';
import { accountDataset, openDataset } from '@/lib/files/dataset-cache.client';
import { R_LIMITS, replySchema, type Reply, type RequestIn } from './protocol.client';
import { deviceFile } from '@/lib/files/device-files.client';
import { browserScheduler, ON_SCHEDULE_TICK_MS, OnScheduleClock, type Scheduler } from '@/lib/runtime/on-schedule-clock';

/** Where R's worker finds webR and R packages (the configuration's fields R reads). */
type RLocation = Pick<TargetConfig, 'webrBasePath' | 'rPackageRepoUrl'>;

const WORKER_URL = '/workers/r.worker.mjs';
const ENGINE = 'R';

type Connection = WorkerPort & {
  ready: Promise<void>;
  pending: Map<number, (reply: Reply | null) => void>;
  /** Files (name@sha256) this R already has under /data. */
  written: Set<string>;
  /** The stored runs (tool call ids) this R has executed successfully: restore's ledger. */
  ran: Set<string>;
  /** Why this R was ended (replaced, restarted, disposed); null while it is the runner's. */
  ended: RunFailure | null;
  /** Settles `ready` as failed with `failure` (a no-op once it has settled). */
  abandon: (failure: RunFailure) => void;
};

/** What a run waiting for its R learns when that R is ended before it answers. */
const ENDED_BY = {
  restart: { kind: 'interrupted', state: 'none' },
  dispose: { kind: 'page-closed' },
} as const satisfies Record<string, RunFailure>;

export class RRunner implements TargetRunner {
  readonly stateful = true;
  readonly replay = 'replay' as const;
  private connection: Connection | null = null;
  private nextId = 1;
  private readonly states = new RunnerStates();
  /** True once a worker was replaced: the next run tells the model its state was lost. */
  private lostState = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** What the last R to start found of the package repository (the worker asks once as R starts). */
  private repository: PackageSourceState = 'unknown';

  /** `startTimeoutMs`: how long R has to say it is ready (tests give a short one); `scheduler`: the clock and timers of a run's limits (tests give a fake machine). */
  constructor(
    private readonly location: RLocation,
    private readonly startTimeoutMs: number = RUN_LIMITS.startTimeoutMs,
    private readonly scheduler: Scheduler = browserScheduler,
  ) {}

  packageSource(): PackageSourceState {
    return this.repository;
  }

  missingRuns(runIds: readonly string[]): string[] {
    const ran = this.connection?.ran;
    return runIds.filter((id) => !ran?.has(id));
  }

  state(): RunnerState {
    return this.states.current;
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    return this.states.subscribe(listener);
  }

  async start(): Promise<void> {
    await this.connect().ready;
  }

  async restart(): Promise<void> {
    this.kill(this.connection, ENDED_BY.restart);
    await this.start();
  }

  dispose(): void {
    this.kill(this.connection, ENDED_BY.dispose);
    this.states.clear();
  }

  /** Reads a file R wrote (under /output/), for storing it as a download. */
  async readFile(path: string): Promise<Uint8Array> {
    const connection = this.connect();
    await connection.ready;
    const reply = await this.request(connection, (id) => ({ type: 'read-file', id, path }), this.startTimeoutMs);
    if (reply?.type === 'file') return reply.bytes;
    throw new RunFailureError(reply?.type === 'request-failed' ? reply.failure : { kind: 'crashed', engine: ENGINE, cause: 'not-answering', stateLost: false, detail: `no answer for ${path}` });
  }

  run(code: string, context: RunContext): Promise<RunResult> {
    // One run at a time, in the order asked.
    const result = this.queue.then(() => this.runNow(code, context));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async runNow(code: string, context: RunContext): Promise<RunResult> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    if (context.signal?.aborted) return failedRun({ kind: 'interrupted', state: 'kept' }, 0);
    const connection = this.connect();
    try {
      await withAbort(connection.ready, context.signal);
      await this.writeFiles(connection, context.files, context);
    } catch (error) {
      if (context.signal?.aborted) return failedRun({ kind: 'interrupted', state: 'kept' }, elapsed());
      // This run's R only: one a restart has already replaced keeps its successor alive.
      this.kill(connection);
      // R's own failure to start or a file it could not get; anything else is a fault of this runner.
      return failedRun(failureOfError(error, ENGINE, (detail) => ({ kind: 'engine-start', engine: ENGINE, detail })), elapsed());
    }
    // Replaced while its files were written (a restart): the code is not posted to an R that is gone.
    if (connection.ended) return failedRun(connection.ended, elapsed());
    const restarted = this.lostState;
    this.lostState = false;
    // Earlier R runs this run may use that this R has not run (a reload, a replaced worker, no restore).
    const missing = (context.dependsOn ?? []).filter((runId) => !connection.ran.has(runId)).length;
    context.onPhase?.({ kind: 'running', startedAt: Date.now() });
    this.states.set({ kind: 'busy' });
    // A run's duration is its code's, from here: not R's start or its files' writing, which a
    // restore's estimate ("the time that code took") must not count.
    const ranFrom = performance.now();

    const id = this.nextId++;
    let stop: 'timeout' | 'user' | null = null;
    const { scheduler } = this;
    let killTimer: unknown = null;
    let grace: OnScheduleClock | null = null;
    const stopRun = (reason: 'timeout' | 'user') => {
      if (stop) return;
      stop = reason;
      connection.port.postMessage({ type: 'interrupt' } satisfies RequestIn);
      // R that does not come back (one long C call) loses its worker: once the page has been run
      // on schedule for the grace (R's thread had the time to stop between two steps), or once the
      // wall limit has passed however little of it the page was run.
      const clock = new OnScheduleClock(scheduler);
      grace = clock;
      const from = scheduler.now();
      const check = () => {
        if (clock.onScheduleMs >= R_LIMITS.interruptGraceMs || scheduler.now() - from >= R_LIMITS.interruptGraceWallMs) {
          clock.stop();
          connection.pending.get(id)?.(null);
          this.kill(connection);
        } else killTimer = scheduler.setTimeout(check, ON_SCHEDULE_TICK_MS);
      };
      killTimer = scheduler.setTimeout(check, ON_SCHEDULE_TICK_MS);
    };
    const timer = scheduler.setTimeout(() => stopRun('timeout'), context.timeoutMs);
    const onAbort = () => stopRun('user');
    context.signal?.addEventListener('abort', onAbort);
    try {
      const reply = await new Promise<Reply | null>((resolve) => {
        connection.pending.set(id, resolve);
        connection.port.postMessage({ type: 'run', id, code } satisfies RequestIn);
      });
      const killed = reply === null;
      const outputs = reply?.type === 'ran' ? admit(reply.outputs) : { outputs: [], dropped: 0, failure: null };
      const dropped = outputs.dropped + (reply?.type === 'ran' ? reply.dropped : 0);
      const failures: RunFailure[] = [];
      const state = killed ? 'lost' : 'kept';
      if (stop === 'timeout') failures.push({ kind: 'time-limit', limitMs: context.timeoutMs, state });
      else if (stop === 'user') failures.push({ kind: 'interrupted', state });
      else if (killed) failures.push({ kind: 'crashed', engine: ENGINE, cause: 'died', stateLost: true });
      if (reply?.type === 'request-failed') failures.push(reply.failure);
      if (dropped > 0) failures.push({ kind: 'reply-invalid', engine: ENGINE, dropped });
      if (outputs.failure) failures.push(outputs.failure);
      const status: RunResult['status'] = stop === 'timeout' ? 'timeout' : stop === 'user' ? 'interrupted' : reply?.type === 'ran' ? reply.status : failures.length > 0 ? statusOfFailure(failures[0]) : 'crashed';
      if (status === 'ok' && context.runId) connection.ran.add(context.runId);
      context.onOutputs?.(outputs.outputs);
      return {
        status,
        outputs: outputs.outputs,
        durationMs: performance.now() - ranFrom,
        ...(failures.length ? { failures } : {}),
        // The R before this one was replaced (an earlier run's kill, a restart): its variables are gone.
        ...(restarted ? { notice: RESTARTED_NOTICE } : {}),
        ...(restarted || killed ? { restarted: true } : {}),
        ...(missing > 0 ? { freshInterpreter: { missingRuns: missing } } : {}),
      };
    } finally {
      scheduler.clearTimeout(timer);
      if (killTimer !== null) scheduler.clearTimeout(killTimer);
      (grace as OnScheduleClock | null)?.stop();
      context.signal?.removeEventListener('abort', onAbort);
      connection.pending.delete(id);
      if (this.connection === connection) this.states.set({ kind: 'ready' });
    }
  }

  /** Writes the conversation's files R does not have yet into /data/, from the browser's dataset cache when it can. */
  private async writeFiles(connection: Connection, files: readonly DataFile[], context: RunContext): Promise<void> {
    const unwritten = files.filter((file) => !connection.written.has(dataFileKey(file)));
    if (unwritten.length === 0) return;
    // Kept on the device: mounted where it lies (never read whole); a device without it fails the run.
    // Just dropped (not kept yet): its File, mounted the same way under its drop id.
    for (const file of unwritten) {
      if (file.location === 'account') continue;
      const blob = file.location === 'dropped' ? file.file : await deviceFile(file.sha256, file.salts);
      if (!blob) throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'on-device' });
      const key = file.location === 'dropped' ? file.dropId : file.sha256;
      const reply = await this.request(connection, (id) => ({ type: 'mount-file', id, name: file.name, sha256: key, file: blob }), this.startTimeoutMs);
      if (reply?.type !== 'done') throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'not-written' });
      connection.written.add(dataFileKey(file));
    }
    const missing = unwritten.filter((file) => file.location === 'account');
    if (missing.length === 0) return;
    const sources = await Promise.all(missing.map((file) => openDataset(accountDataset(file))));
    context.onPhase?.({ kind: 'loading-files', names: missing.map((file) => file.name), bytes: sources.reduce((sum, source) => sum + (source.size ?? 0), 0) });
    for (const [i, file] of missing.entries()) {
      const bytes = await sources[i].read();
      const reply = await this.request(connection, (id) => ({ type: 'write-file', id, path: `/data/${file.name}`, bytes }), this.startTimeoutMs, [bytes.buffer]);
      if (reply?.type !== 'done') throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'not-written' });
      connection.written.add(dataFileKey(file));
    }
  }

  private request(connection: Connection, make: (id: number) => RequestIn, timeoutMs: number, transfer: Transferable[] = []): Promise<Reply | null> {
    const id = this.nextId++;
    return new Promise<Reply | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      connection.pending.set(id, (reply) => {
        clearTimeout(timer);
        connection.pending.delete(id);
        resolve(reply);
      });
      connection.port.postMessage(make(id), transfer);
    });
  }

  private connect(): Connection {
    if (this.connection) return this.connection;
    const { worker, port } = connectWorker(new Worker(WORKER_URL, { type: 'module', name: 'r' }), { baseUrl: this.location.webrBasePath, repoUrl: this.location.rPackageRepoUrl });
    const pending = new Map<number, (reply: Reply | null) => void>();
    this.states.set({ kind: 'starting', detail: 'Starting R' });
    let abandon: (failure: RunFailure) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new RunFailureError({ kind: 'engine-start', engine: ENGINE, detail: `no answer within ${Math.round(this.startTimeoutMs / 1000)} s` })), this.startTimeoutMs);
      abandon = (failure) => {
        clearTimeout(timer);
        reject(new RunFailureError(failure));
      };
      port.onmessage = (event: MessageEvent<unknown>) => {
        const reply = replySchema.safeParse(event.data);
        if (!reply.success) {
          // A reply the page cannot read ends the request it names at once (not at its time limit); anything else is ignored.
          const id = (event.data as { id?: unknown } | null)?.id;
          if (typeof id === 'number') pending.get(id)?.({ type: 'request-failed', id, failure: { kind: 'reply-invalid', engine: ENGINE, dropped: 1 } });
          return;
        }
        if (reply.data.type === 'ready') {
          clearTimeout(timer);
          // Known before `ready` is announced, so subscribers read it with the state change.
          this.repository = reply.data.packages;
          resolve();
        } else if (reply.data.type === 'failed') {
          clearTimeout(timer);
          reject(new RunFailureError(reply.data.failure));
        } else pending.get(reply.data.id)?.(reply.data);
      };
      worker.onerror = () => {
        clearTimeout(timer);
        reject(new RunFailureError({ kind: 'engine-start', engine: ENGINE, detail: 'its worker script failed to load' }));
      };
    });
    ready.then(
      () => {
        if (this.connection?.worker === worker) this.states.set({ kind: 'ready' });
      },
      (error: unknown) => {
        if (this.connection?.worker === worker) this.states.set({ kind: 'failed', message: failureForPerson(failureOfError(error, ENGINE)) });
      },
    );
    this.connection = { worker, port, ready, pending, written: new Set(), ran: new Set(), ended: null, abandon };
    return this.connection;
  }

  /**
   * Ends `connection`'s R if it is still this runner's (a stale one was ended already): whatever
   * waits on it settles now, a run waiting for it to start with `why`.
   */
  private kill(connection: Connection | null, why: RunFailure = { kind: 'crashed', engine: ENGINE, cause: 'died', stateLost: true }): void {
    if (!connection || connection !== this.connection) return;
    this.connection = null;
    this.lostState = true;
    connection.ended = why;
    connection.abandon(why);
    disconnectWorker(connection);
    for (const resolve of connection.pending.values()) resolve(null);
    this.states.set({ kind: 'idle' });
  }
}

/** Outputs from the worker, validated and capped by the page (ARCHITECTURE.md: "the page is the boundary"). */
function admit(raw: readonly unknown[]): { outputs: Output[]; dropped: number; failure: RunFailure | null } {
  const budget = new OutputBudget(OUTPUT_CAPS);
  let dropped = 0;
  for (const item of raw) {
    const output = outputSchema.safeParse(item);
    if (output.success) budget.admit(output.data, JSON.stringify(output.data).length);
    else dropped += 1;
  }
  return { outputs: [...budget.outputs], dropped, failure: budget.failure };
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return Promise.race([promise, new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new RunFailureError({ kind: 'interrupted', state: 'kept' })), { once: true }))]);
}

export function createRRunner(env: RunnerEnv): TargetRunner {
  return new RRunner(env.config);
}
