/**
 * The contract between the kernel (page) and the Python worker, exposed over comlink.
 * Types only on the worker side; the kernel validates every value that comes back with the
 * schemas below, because code running in the worker can post anything.
 */
import 'client-only';
import { z } from 'zod';
import type { OutputCaps } from '@/lib/runtime/limits';
import type { Ring } from '@/lib/files/prefetch-ring';

export type WorkerInitOptions = {
  /** Absolute URL of the directory holding pyodide.mjs, the wasm and the stdlib. */
  indexURL: string;
  /** Where package wheels are fetched from (the official CDN or a self-hosted mirror). */
  packageBaseUrl: string;
  /** The lock file listing the packages of that source; the core's copy is the fallback. */
  packageLockUrl: string;
  /** Shared interrupt flag; the kernel writes 2 (SIGINT) to stop a run. */
  interruptBuffer: Uint8Array;
  caps: OutputCaps;
  /** DuckDB, the SQL engine, started in the worker on first need (lib/targets/sql/engine/bridge.ts). */
  duckdb: DuckdbLocation;
};

/**
 * The signal the kernel writes into the interrupt buffer (when it holds nothing else) every
 * FLUSH_EVERY_MS while a run goes on: Python's handler sends the text printed so far, so a print
 * just before a long computation shows without waiting for the next print (lib/targets/python/engine/runpad/streams.py).
 * SIGUSR1: Pyodide ignores every signal but SIGINT unless a handler is installed.
 */
export const FLUSH_SIGNAL = 10;
export const FLUSH_EVERY_MS = 250;

export type DuckdbLocation = {
  /** Absolute URL of public/duckdb/<version>/ (the app's own origin). */
  assetUrl: string;
  /** DuckDB's extension repository or the configured mirror (no trailing slash). */
  extensionRepository: string;
};

/** What the interpreter runs: Python, or SQL in the same namespace (lib/targets/python/engine/runpad/sql.py). */
export type RunLanguage = 'python' | 'sql';

export type ProgressCallback = (phase: StartPhase) => void;

export interface PythonWorkerApi {
  init(options: WorkerInitOptions, onProgress: ProgressCallback): Promise<unknown>;
  /**
   * Outputs made while the code runs arrive meanwhile as OutputMessages on the worker's port; the
   * rest (made after it: the value, the last printed text, the traceback) come in the reply.
   */
  run(code: string, language?: RunLanguage): Promise<unknown>;
  /** Names of the packages the code imports that are not loaded yet (fast, no network). */
  packagesNeeded(code: string): Promise<unknown>;
  /** Loads the packages the code imports; safe to call while the model is still writing it. */
  loadPackagesFor(code: string): Promise<unknown>;
  heapBytes(): Promise<unknown>;
  /** Starts DuckDB (the SQL engine) now, if it has not started; resolves when it is ready. */
  startSql(): Promise<unknown>;
  /** Whether the package source answers (its lock file, fetched through the loader's own path). */
  probePackageSource(): Promise<unknown>;
  writeFile(path: string, bytes: Uint8Array): Promise<unknown>;
  /** Makes a file kept on the device (its OPFS File, and its handle for reads during runs) readable at /data/<name>, read in place (lib/files/device-mount.ts). */
  mountDeviceFile(name: string, sha256: string, file: Blob, handle: FileSystemFileHandle | null, ring?: Ring | null): Promise<unknown>;
  readFile(path: string): Promise<unknown>;
}

export const startPhaseSchema = z.enum(['downloading', 'starting', 'installing', 'ready']);
export type StartPhase = z.infer<typeof startPhaseSchema>;

export const initResultSchema = z.object({
  pythonVersion: z.string(),
  pyodideVersion: z.string(),
  /** The kept Pyodide snapshot's digest, for the page to record, and whether one was discarded (lib/targets/python/engine/interpreter.ts). */
  snapshot: z.object({ kept: z.string().regex(/^[0-9a-f]{64}$/).nullable(), discarded: z.enum(['mismatch', 'unrecorded']).nullable() }),
});
export const heapBytesSchema = z.number().nonnegative();
export const packageSourceAnswerSchema = z.boolean();
/** DuckDB's version once started, or why it could not start. */
export const sqlStartSchema = z.union([z.object({ version: z.string() }), z.object({ error: z.string() })]);
/** `outputs`: the run's last outputs as JSON, checked like the ones posted during the run. */
export const workerRunResultSchema = z.object({ status: z.enum(['ok', 'error', 'interrupted']), heapBytes: heapBytesSchema, outputs: z.array(z.string()) });
export type WorkerRunResult = z.infer<typeof workerRunResultSchema>;
export const packageFailureSchema = z.object({ name: z.string(), url: z.string(), message: z.string() });
export type PackageFailure = z.infer<typeof packageFailureSchema>;
export const loadPackagesResultSchema = z.object({
  loaded: z.array(z.string()),
  failed: z.array(packageFailureSchema),
});
export type LoadPackagesResult = z.infer<typeof loadPackagesResultSchema>;
export const packageNamesSchema = z.array(z.string());
/** Posted by the worker, outside comlink, the moment a run asks for more memory than allowed. */
export const memoryLimitMessageSchema = z.object({
  type: z.literal('runpad:memory-limit'),
  requestedBytes: z.number().nonnegative(),
  limitBytes: z.number().positive(),
});
export type MemoryLimitMessage = z.infer<typeof memoryLimitMessageSchema>;
/** Posted by the worker, outside comlink, for each output of a run: JSON checked by the kernel. */
export const outputMessageSchema = z.object({ type: z.literal('runpad:output'), json: z.string() });
export type OutputMessage = z.infer<typeof outputMessageSchema>;
export const fileBytesSchema = z.instanceof(Uint8Array);
