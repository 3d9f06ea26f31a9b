/**
 * Loads Pyodide (from a memory snapshot when the browser has one). Started as soon as the worker script runs when the worker's URL names where
 * Pyodide lives (lib/runtime/worker-url.ts), so downloading and compiling overlap with the page
 * still loading and with the kernel's init message on its way.
 */
import type { PyodideAPI } from 'pyodide';
import pythonSources from 'virtual:python-sources';
import { BOOT_PARAMS } from '@/lib/runtime/worker-url';
import { readLockFile, type LockFile } from './packages';
import { snapshotStore } from './snapshot-store';

export type InterpreterLocation = { indexURL: string; packageBaseUrl: string; packageLockUrl: string };
export type Interpreter = { py: PyodideAPI; lock: LockFile; fromSnapshot: boolean };

/** The absolute Pyodide and package URLs the worker's own URL names, or null. */
export function bootLocationOf(workerHref: string): InterpreterLocation | null {
  const url = new URL(workerHref);
  const index = url.searchParams.get(BOOT_PARAMS.index);
  const packages = url.searchParams.get(BOOT_PARAMS.packages);
  const lock = url.searchParams.get(BOOT_PARAMS.lock);
  if (!index || !packages || !lock) return null;
  return { indexURL: new URL(index, url).href, packageBaseUrl: new URL(packages, url).href, packageLockUrl: new URL(lock, url).href };
}

type LoadPyodide = (config: Record<string, unknown>) => Promise<PyodideAPI>;
type SnapshotMaker = { makeMemorySnapshot(): Uint8Array<ArrayBuffer> };

export const PACKAGE_ROOT = '/runpad-lib';
const ENV = { MPLBACKEND: 'module://runpad.mpl_backend', HOME: '/home/pyodide' };
/**
 * What a snapshot holds beyond Python itself: our package, imported, and on sys.path, and the
 * Pyodide modules init() uses (importing pyodide.http alone took ~1.4 s of a cached start).
 */
const PRELOAD = `
import sys
if ${JSON.stringify(PACKAGE_ROOT)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(PACKAGE_ROOT)})
import json, runpad.kernel, runpad.sandbox, pyodide.code, pyodide.http
`;

function installPythonPackage(py: PyodideAPI): void {
  // Also after a snapshot: the files live in the JS-side filesystem, which a snapshot does not
  // hold, and tracebacks and inspect read them.
  for (const [relative, source] of Object.entries(pythonSources)) {
    const full = `${PACKAGE_ROOT}/${relative}`;
    py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    py.FS.writeFile(full, source);
  }
}

/**
 * Pyodide with our package imported. The first start in a browser makes a memory snapshot right
 * after the imports (before any JavaScript object is handed to Python, which a snapshot could not
 * hold) and stores it; later starts restore it and skip Python's initialisation and the imports.
 */
export async function loadInterpreter({ indexURL, packageBaseUrl, packageLockUrl }: InterpreterLocation): Promise<Interpreter> {
  const lockFile = readLockFile([packageLockUrl, new URL('pyodide-lock.json', indexURL).href]);
  const storeReady = snapshotStore(indexURL, { ENV, PRELOAD, pythonSources });
  const [{ loadPyodide }, store] = await Promise.all([
    import(/* webpackIgnore: true */ `${indexURL}pyodide.mjs`) as Promise<{ loadPyodide: LoadPyodide }>,
    storeReady,
  ]);
  const options = { indexURL, packageBaseUrl, lockFileContents: lockFile, env: ENV, stdout: () => undefined, stderr: () => undefined };
  const snapshot = await store.load();
  let py: PyodideAPI | null = null;
  let fromSnapshot = false;
  if (snapshot) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      fromSnapshot = true;
    } catch {
      await store.discard(); // from another build, or damaged: make a new one below
    }
  }
  if (py) {
    installPythonPackage(py);
  } else {
    py = await loadPyodide({ ...options, _makeSnapshot: true });
    installPythonPackage(py);
    py.runPython(PRELOAD);
    const bytes = (py as unknown as SnapshotMaker).makeMemorySnapshot();
    void store.save(bytes);
  }
  return { py, lock: await lockFile, fromSnapshot };
}

/** One load per location: the early start, if its location matches, serves the init call. */
export class InterpreterStarter {
  private started: { location: InterpreterLocation; promise: Promise<Interpreter> } | null = null;

  start(location: InterpreterLocation): Promise<Interpreter> {
    const previous = this.started?.location;
    const same = previous && previous.indexURL === location.indexURL && previous.packageBaseUrl === location.packageBaseUrl && previous.packageLockUrl === location.packageLockUrl;
    if (!same || !this.started) this.started = { location, promise: loadInterpreter(location) };
    const { promise } = this.started;
    promise.catch(() => undefined); // an early start nobody awaits yet must not be an unhandled rejection
    return promise;
  }
}
