/**
 * The Python worker: Pyodide in a module Web Worker, driven by the kernel over comlink.
 * It has no DOM. Everything it sends back is validated by the kernel (lib/targets/python/kernel.client.ts).
 */
import * as Comlink from 'comlink';
import type { PyodideAPI } from 'pyodide';
import { FLUSH_EVERY_MS, FLUSH_SIGNAL, type DuckdbLocation, type OutputMessage, type ProgressCallback, type PythonWorkerApi, type RunLanguage, type WorkerInitOptions } from '@/lib/targets/python/worker-api.client';
import { bootLocationOf, InterpreterStarter } from './interpreter';
import { lockDown, type KernelNetwork } from '@/lib/targets/shared/engine/lockdown';
import { capMemoryGrowth } from './memory-cap';
import { PackageLoader } from './packages';
import { RUN_LIMITS } from '@/lib/runtime/limits';
import { startDuckdb, type DuckdbBridge, type FileRanges } from '@/lib/targets/sql/engine/bridge';
import { closeDeviceFiles, deviceReaderOf, mountDeviceFile, openDeviceFiles, unlinkDeviceLink, type EmscriptenFs, type SyncReadable } from '@/lib/files/device-mount';
import { isRing, type Ring } from '@/lib/files/prefetch-ring';
import { mentionsSql } from '@/lib/targets/python/mentions-sql.client';

type PyCallable = ((...args: unknown[]) => unknown) & { destroy(): void };
type PyResult = { toJs(options: { dict_converter: typeof Object.fromEntries }): unknown; destroy(): void };

let pyodide: PyodideAPI | null = null;
let network: KernelNetwork | null = null;
let packages: PackageLoader | null = null;
let runKernel: PyCallable | null = null;
let runSql: PyCallable | null = null;
/** Sends the running cell's printed text so far (runpad/streams.py), for a cell that awaits. */
let flushRun: PyCallable | null = null;
let packageSourceUrl = '';
let duckdbLocation: DuckdbLocation | null = null;
let duckdb: Promise<DuckdbBridge> | null = null;
/** DuckDB loads extensions with a synchronous request: kept before the lockdown removes it. */
const kernelXhr = (globalThis as { XMLHttpRequest?: typeof XMLHttpRequest }).XMLHttpRequest;
/** A package source that has not answered in this long counts as unreachable. */
const PROBE_TIMEOUT_MS = 8_000;
/** The kernel's private port (see lib/targets/python/worker-handle.client.ts); the global scope serves no one. */
let kernelPort: MessagePort | null = null;

// The memory cap goes in first, so it holds for the whole life of the interpreter.
capMemoryGrowth(RUN_LIMITS.maxHeapBytes, (message) => kernelPort?.postMessage(message));

// Start loading Pyodide now if our URL says from where; init() picks up the same load.
const starter = new InterpreterStarter();
const bootLocation = bootLocationOf(self.location.href);
if (bootLocation) starter.start(bootLocation);

/**
 * Outputs go out on the kernel's port, the one comlink replies on: messages on one port arrive
 * in order, so every output of a run reaches the page before the run's reply does. Python holds
 * this function, so it can post outputs of its own making: the kernel caps and validates them.
 */
function emitOutput(json: string): void {
  const message: OutputMessage = { type: 'runpad:output', json: String(json) };
  kernelPort?.postMessage(message);
}

/** The wasm heap's size: it only grows, so after a run it is the run's high-water mark. */
function heapBytesOf(py: PyodideAPI): number {
  return (py as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8.byteLength;
}

/**
 * A file of the interpreter's file system as DuckDB reads it, or null: an uploaded file (in memory)
 * as a view of its bytes, no copy; a file kept on the device (a link to its WORKERFS mount) as
 * ranges read from the disk on demand (lib/files/device-mount.ts).
 */
function fileSource(py: PyodideAPI, path: string): FileRanges | null {
  let node: { contents?: ArrayBufferView | Blob | null; usedBytes?: number };
  try {
    node = py.FS.lookupPath(path, { follow: true }).node as unknown as typeof node;
  } catch {
    return null; // no such file: DuckDB reports it by name
  }
  const device = deviceReaderOf(node);
  if (device) return device;
  // MEMFS keeps a file's bytes in a typed array of its own choosing (an Int8Array for a file Python wrote): read them as bytes.
  const contents = ArrayBuffer.isView(node.contents) ? node.contents : null;
  const bytes = contents ? new Uint8Array(contents.buffer, contents.byteOffset, Math.min(node.usedBytes ?? contents.byteLength, contents.byteLength)) : new Uint8Array(0);
  return {
    size: bytes.byteLength,
    readInto: (target, position) => {
      const part = bytes.subarray(position, Math.min(position + target.byteLength, bytes.byteLength));
      target.set(part);
      return part.byteLength;
    },
  };
}

/**
 * DuckDB, started once on first need (a SQL run, Python code that calls sql(), or the page's
 * prefetch when a dataset arrives or the model starts writing SQL). Python gets the bridge as
 * `runpad.duckdb_bridge`; a failed start is kept so every SQL run says why, and retried on the next.
 */
function ensureDuckdb(py: PyodideAPI): Promise<DuckdbBridge> {
  if (duckdb) return duckdb;
  const location = duckdbLocation;
  if (!location || !network) return Promise.reject(new Error('The interpreter has not started.'));
  const started = network.withFetch(() =>
    startDuckdb({
      assetUrl: location.assetUrl,
      extensionRepository: location.extensionRepository,
      memoryLimitBytes: RUN_LIMITS.maxHeapBytes / 2,
      xhr: kernelXhr,
      fileSource: (path) => fileSource(py, path),
      checkInterrupt: () => py.checkInterrupt(),
    }),
  );
  duckdb = started;
  started.then(
    (bridge) => (py.runPython('import runpad.duckdb_bridge as b; b.set_bridge') as PyCallable)(bridge),
    (error: unknown) => {
      duckdb = null;
      const message = error instanceof Error ? error.message : String(error);
      (py.runPython('import runpad.duckdb_bridge as b; b.set_start_error') as PyCallable)(message);
    },
  );
  return started;
}

/**
 * Blocks this thread for up to `ms` milliseconds, or until the page asks for an interrupt (it
 * writes the buffer, then notifies): Python's time.sleep waits with it (runpad/waiting.py). Null
 * without a shared buffer (no cross-origin isolation): the sleep is then CPython's own.
 */
function waiterOn(interruptBuffer: Uint8Array): ((ms: number) => void) | null {
  const buffer = interruptBuffer.buffer;
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < 4) return null;
  const flag = new Int32Array(buffer, 0, 1);
  return (ms: number) => {
    Atomics.wait(flag, 0, 0, Math.max(0, Number(ms)));
  };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

function requireReady(): PyodideAPI {
  if (!pyodide) throw new Error('The interpreter has not started.');
  return pyodide;
}

const api: PythonWorkerApi = {
  async init(options: WorkerInitOptions, onProgress: ProgressCallback) {
    onProgress('downloading');
    const { py, lock, snapshot } = await starter.start({ indexURL: options.indexURL, packageBaseUrl: options.packageBaseUrl, packageLockUrl: options.packageLockUrl });
    onProgress('starting');
    py.setInterruptBuffer(options.interruptBuffer);
    packages = new PackageLoader(py, lock, options.packageBaseUrl);

    onProgress('installing');
    py.globals.set('__runpad_emit', emitOutput);
    py.globals.set('__runpad_wait', waiterOn(options.interruptBuffer));
    py.globals.set('__runpad_caps', JSON.stringify(options.caps));
    runKernel = py.runPython(`
import sys, json
from runpad.kernel import Kernel
from runpad import sandbox
__runpad_kernel = Kernel(emit=lambda out: __runpad_emit(json.dumps(out, allow_nan=False)), caps=json.loads(__runpad_caps))
sandbox.disable_network()
from runpad.streams import install_flush_signal
install_flush_signal(${FLUSH_SIGNAL})
if __runpad_wait is not None:
    from runpad import waiting
    waiting.install(__runpad_wait)
del __runpad_caps, __runpad_wait
__runpad_kernel.start
`) as PyCallable;
    runSql = py.runPython('__runpad_kernel.run_sql') as PyCallable;
    flushRun = py.runPython('from runpad.streams import flush_current_run; flush_current_run') as PyCallable;
    // The extension source: the bridge checks an extension's file is there before DuckDB may load it.
    network = lockDown([options.packageBaseUrl, options.indexURL, options.duckdb.assetUrl, `${options.duckdb.extensionRepository}/`]);
    duckdbLocation = options.duckdb;
    packageSourceUrl = options.packageBaseUrl;
    pyodide = py;
    onProgress('ready');
    const version = py.runPython('import sys; sys.version.split()[0]') as string;
    return { pythonVersion: version, pyodideVersion: py.version, snapshot };
  },

  async run(code: string, language: RunLanguage = 'python') {
    const py = requireReady();
    const runner = language === 'sql' ? runSql : runKernel;
    if (!runner) throw new Error('The interpreter has not started.');
    if (language === 'sql' || mentionsSql(code)) await ensureDuckdb(py).catch(() => undefined); // Python reports it
    // Files kept on the device are read through their read-only handles while the run lasts.
    await openDeviceFiles();
    let proxy: PyResult;
    try {
      // Python's result at once, or (SQL, code that awaits) a coroutine for Pyodide's event loop.
      const started = runner(String(code)) as PyResult | PromiseLike<PyResult>;
      if (isPromiseLike(started)) {
        // While the cell awaits, Python is not running and takes no signal: this thread is free,
        // so the text printed before the await is sent from here.
        const flushing = setInterval(() => flushRun?.(), FLUSH_EVERY_MS);
        try {
          proxy = await started;
        } finally {
          clearInterval(flushing);
        }
      } else {
        proxy = started;
      }
    } finally {
      closeDeviceFiles();
    }
    const result = proxy.toJs({ dict_converter: Object.fromEntries }) as Record<string, unknown>;
    proxy.destroy();
    return { ...result, heapBytes: heapBytesOf(py) };
  },

  async startSql() {
    try {
      const bridge = await ensureDuckdb(requireReady());
      return { version: bridge.version };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  },

  async packagesNeeded(code: string) {
    requireReady();
    return packages ? packages.packagesFor(code).map((p) => p.name) : [];
  },

  async loadPackagesFor(code: string) {
    requireReady();
    if (!packages || !network) throw new Error('The interpreter has not started.');
    const loader = packages;
    const wanted = loader.packagesFor(code);
    return network.withFetch(() => loader.load(wanted));
  },

  async heapBytes() {
    return heapBytesOf(requireReady());
  },

  async probePackageSource() {
    requireReady();
    if (!network) throw new Error('The interpreter has not started.');
    const url = new URL('pyodide-lock.json', packageSourceUrl).href;
    return network.withFetch(async () => {
      try {
        const response = await fetch(url, { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        return response.ok;
      } catch {
        return false;
      }
    });
  },

  async writeFile(path: string, bytes: Uint8Array) {
    const py = requireReady();
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/');
    unlinkDeviceLink(py.FS as unknown as Parameters<typeof unlinkDeviceLink>[0], path); // the file moved from the device to the account
    py.FS.writeFile(path, bytes);
    return true;
  },

  async mountDeviceFile(name: string, sha256: string, file: Blob, handle: FileSystemFileHandle | null, ring: Ring | null = null) {
    if (!(file instanceof Blob)) throw new TypeError('A device dataset arrives as a File.');
    const readable = typeof FileSystemFileHandle !== 'undefined' && handle instanceof FileSystemFileHandle ? (handle as unknown as SyncReadable) : null;
    mountDeviceFile(requireReady().FS as unknown as EmscriptenFs, String(name), String(sha256), file, readable, isRing(ring) ? ring : null);
    return true;
  },

  async readFile(path: string) {
    const bytes = requireReady().FS.readFile(path);
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
};

/** The first `runpad:connect` message hands over the kernel's port; later ones are ignored. */
function connect(event: MessageEvent<unknown>): void {
  const data = event.data as { type?: unknown; port?: unknown } | null;
  if (kernelPort || data?.type !== 'runpad:connect' || !(data.port instanceof MessagePort)) return;
  kernelPort = data.port;
  self.removeEventListener('message', connect);
  Comlink.expose(api, kernelPort);
}
self.addEventListener('message', connect);
