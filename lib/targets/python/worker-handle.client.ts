/**
 * One Python worker instance: spawns it, starts the interpreter, and validates what it answers.
 * A handle is used until it is terminated; the kernel then makes a new one (with a new
 * interrupt buffer, because a stale flag would kill the new interpreter's first run).
 */
import 'client-only';
import type { Ring } from '@/lib/files/prefetch-ring';
import * as Comlink from 'comlink';
import { outputSchema, type Output } from '@/lib/runtime/protocol';
import { RUN_LIMITS, type OutputCaps } from '@/lib/runtime/limits';
import {
  FLUSH_SIGNAL,
  fileBytesSchema,
  heapBytesSchema,
  packageSourceAnswerSchema,
  initResultSchema,
  loadPackagesResultSchema,
  memoryLimitMessageSchema,
  outputMessageSchema,
  packageNamesSchema,
  workerRunResultSchema,
  type LoadPackagesResult,
  type PythonWorkerApi,
  type DuckdbLocation,
  sqlStartSchema,
  type RunLanguage,
  type StartPhase,
  type WorkerRunResult,
} from './worker-api.client';
import { withTimeout } from '@/lib/runtime/with-timeout';
import { takeBootWorker } from './boot-worker.client';
import { PYTHON_WORKER_OPTIONS } from './worker-url';
import { recordSnapshotDigest, withSnapshotDigest } from './snapshot-digest.client';
import { startProgress } from './start-progress.client';

export type WorkerConfig = {
  workerUrl: string;
  indexURL: string;
  packageBaseUrl: string;
  packageLockUrl: string;
  caps: OutputCaps;
  duckdb: DuckdbLocation;
};

export class WorkerHandle {
  readonly interruptBuffer: Uint8Array;
  readonly ready: Promise<{ pythonVersion: string; pyodideVersion: string }>;
  /** Set once `ready` has resolved, so a run can start without waiting a microtask for it. */
  isReady = false;
  /** Messages from the worker that did not match the protocol and were dropped. */
  droppedMessages = 0;
  /** Output messages the worker has sent, kept or not: a run that sends any is still alive. */
  outputMessages = 0;
  /** Uncaught errors the worker reported (an interrupted async run can leave one behind). */
  uncaughtErrors = 0;
  /** Set once the interpreter asked for more memory than allowed; it is then replaced. */
  memoryLimitReached = false;
  private memoryLimitListener: (() => void) | null = null;
  private sqlStartedValue = false;
  private outputListener: ((output: Output, sizeBytes: number) => void) | null = null;
  private readonly worker: Worker;
  /**
   * The kernel's private line to the worker. The worker's global scope is reachable from Python
   * (`js.self`), so anything listening there could be driven by the code it runs; this port is
   * transferred before any user code exists and is held only in the worker's closure.
   */
  private readonly port: MessagePort;
  private readonly remote: Comlink.Remote<PythonWorkerApi>;
  private terminated = false;
  private readonly died: Promise<never>;
  private rejectDied: (reason: Error) => void = () => undefined;

  private readonly caps: OutputCaps;

  constructor(config: WorkerConfig, onPhase: (phase: StartPhase) => void) {
    this.caps = config.caps;
    // Without cross-origin isolation there is no SharedArrayBuffer: timeouts then kill the worker.
    const shared = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated;
    // Four bytes, though Pyodide reads one: the worker waits on them as an Int32Array (a sleeping
    // run blocks there instead of spinning, and an interrupt wakes it: lib/targets/python/engine/runpad/waiting.py).
    this.interruptBuffer = new Uint8Array(shared ? new SharedArrayBuffer(4) : new ArrayBuffer(4), 0, 1);
    // The page's boot script may already have started this worker (and its interpreter).
    this.worker = takeBootWorker(config.workerUrl) ?? new Worker(withSnapshotDigest(config.workerUrl), PYTHON_WORKER_OPTIONS);
    this.worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.uncaughtErrors += 1;
    });
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.worker.postMessage({ type: 'runpad:connect', port: channel.port2 }, [channel.port2]);
    // Messages on the worker's global scope are ignored: only the private port is the kernel's.
    this.port.addEventListener('message', (event: MessageEvent<unknown>) => {
      // Comlink's own replies carry an id; besides them the worker sends outputs and the memory signal.
      const output = outputMessageSchema.safeParse(event.data);
      if (output.success) {
        this.receiveOutput(output.data.json);
      } else if (memoryLimitMessageSchema.safeParse(event.data).success) {
        this.memoryLimitReached = true;
        this.memoryLimitListener?.();
      }
    });
    this.died = new Promise<never>((_, reject) => {
      this.rejectDied = reject;
    });
    // Observed by every call through guard(); this keeps a death with no call pending from being an unhandled rejection.
    this.died.catch(() => undefined);
    this.remote = Comlink.wrap<PythonWorkerApi>(this.port);
    const progress = startProgress(onPhase);
    const init = this.remote.init(
      {
        indexURL: config.indexURL,
        packageBaseUrl: config.packageBaseUrl,
        packageLockUrl: config.packageLockUrl,
        interruptBuffer: this.interruptBuffer,
        caps: config.caps,
        duckdb: config.duckdb,
      },
      Comlink.proxy(progress.report),
    );
    // Only settles the progress reports; init's failure reaches the page through `ready` below.
    void init.finally(progress.settle).catch(() => undefined);
    this.ready = this.guard(init, RUN_LIMITS.startTimeoutMs, 'Starting the interpreter').then((value) => {
      const started = initResultSchema.parse(value);
      if (started.snapshot.kept) recordSnapshotDigest(started.snapshot.kept);
      if (started.snapshot.discarded === 'mismatch') {
        console.warn('The Python snapshot kept in this browser did not match the digest this page recorded: it was discarded, and Python started without it.');
      }
      this.isReady = true;
      return started;
    });
  }

  /** Called when the running code reaches the memory limit (at most one listener: the run). */
  onMemoryLimit(listener: (() => void) | null): void {
    this.memoryLimitListener = listener;
  }

  get canInterrupt(): boolean {
    return this.interruptBuffer.buffer instanceof SharedArrayBuffer;
  }

  /**
   * Resolves with the worker's own status and the heap size after the run (read in the same
   * reply, to save a round trip), or rejects when the worker is terminated.
   */
  async run(code: string, onOutput: (output: Output, sizeBytes: number) => void, language: RunLanguage = 'python'): Promise<Omit<WorkerRunResult, 'outputs'>> {
    this.outputListener = onOutput;
    try {
      const { outputs, ...result } = workerRunResultSchema.parse(await this.guard(this.remote.run(code, language), null, 'The run'));
      // The run's last outputs came with its reply, after any it posted while running.
      for (const json of outputs) this.receiveOutput(json);
      return result;
    } finally {
      this.outputListener = null;
    }
  }

  /** An output from the worker: for the run in progress, if it matches the protocol. */
  private receiveOutput(json: string): void {
    this.outputMessages += 1;
    // Not even parsed when larger than a whole run may be.
    const output = json.length > this.caps.runBytes ? { success: false as const } : outputSchema.safeParse(safeJson(json));
    if (output.success && this.outputListener) this.outputListener(output.data, json.length);
    else this.droppedMessages += 1;
  }

  async packagesNeeded(code: string): Promise<string[]> {
    return packageNamesSchema.parse(await this.guard(this.remote.packagesNeeded(code), 10_000, 'Finding imports'));
  }

  async loadPackagesFor(code: string, timeoutMs: number): Promise<LoadPackagesResult> {
    const value = await this.guard(this.remote.loadPackagesFor(code), timeoutMs, 'Loading packages');
    return loadPackagesResultSchema.parse(value);
  }

  /** Starts DuckDB in the worker; its version, or why it could not start. */
  async startSql(timeoutMs: number): Promise<{ version: string } | { error: string }> {
    const started = sqlStartSchema.parse(await this.guard(this.remote.startSql(), timeoutMs, 'Starting DuckDB'));
    if ('version' in started) this.sqlStartedValue = true;
    return started;
  }

  /** Whether DuckDB answered a start in this worker (later SQL runs need no round trip for it). */
  get sqlStarted(): boolean {
    return this.sqlStartedValue;
  }

  async heapBytes(): Promise<number> {
    return heapBytesSchema.parse(await this.guard(this.remote.heapBytes(), 2_000, 'Reading the heap size'));
  }

  /** False when the package source did not answer (or the worker could not ask). */
  async probePackageSource(): Promise<boolean> {
    // No answer counts as unreachable: the page then says so and the model is told to use the standard library.
    const answer = await this.guard(this.remote.probePackageSource(), 15_000, 'Checking the package source').catch((error: unknown) => {
      console.warn('The package source could not be checked; treating it as unreachable.', error);
      return false;
    });
    return packageSourceAnswerSchema.safeParse(answer).data ?? false;
  }

  async writeFile(path: string, bytes: Uint8Array): Promise<void> {
    await this.guard(this.remote.writeFile(path, Comlink.transfer(bytes, [bytes.buffer])), 60_000, 'Writing a file');
  }

  /**
   * Mounts a file kept on the device at /data/<name> (a File is cloned to the worker as a reference
   * to the disk, not its bytes); a file just dropped with the ring its reads are read ahead into.
   */
  async mountDeviceFile(name: string, sha256: string, file: Blob, handle: FileSystemFileHandle | null, ring: Ring | null = null): Promise<void> {
    await this.guard(this.remote.mountDeviceFile(name, sha256, file, handle, ring), 10_000, 'Mounting a file');
  }

  async readFile(path: string): Promise<Uint8Array> {
    return fileBytesSchema.parse(await this.guard(this.remote.readFile(path), 60_000, 'Reading a file'));
  }

  interrupt(): void {
    this.interruptBuffer[0] = 2; // SIGINT
    if (this.canInterrupt) Atomics.notify(new Int32Array(this.interruptBuffer.buffer, 0, 1), 0);
  }

  /**
   * Asks Python to send the text printed so far (FLUSH_SIGNAL), unless the buffer already holds a
   * signal: an interrupt is never overwritten, and a flush not yet taken needs no second one.
   */
  requestFlush(): void {
    if (this.canInterrupt) Atomics.compareExchange(this.interruptBuffer, 0, 0, FLUSH_SIGNAL);
  }

  /** After `interrupt()`: Python has seen the flag (it clears it as it raises KeyboardInterrupt). */
  get interruptTaken(): boolean {
    return this.canInterrupt && this.interruptBuffer[0] === 0;
  }

  clearInterrupt(): void {
    this.interruptBuffer[0] = 0;
  }

  terminate(reason = 'The interpreter was stopped.'): void {
    if (this.terminated) return;
    this.terminated = true;
    this.worker.terminate();
    this.port.close();
    this.rejectDied(new Error(reason));
  }

  get isTerminated(): boolean {
    return this.terminated;
  }

  /** Every call races the worker's death and, when given, its own timer. */
  private guard<T>(call: Promise<T>, timeoutMs: number | null, what: string): Promise<T> {
    const raced = Promise.race([call, this.died]);
    return timeoutMs === null ? raced : withTimeout(raced, timeoutMs, what);
  }
}

/** Undefined for text that is not JSON: the schema then refuses it, and the run reports a malformed result. */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
