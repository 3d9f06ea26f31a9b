/**
 * Loads Pyodide (from a memory snapshot: the browser's, else the build's). Started as soon as the worker script runs when the worker's URL names where
 * Pyodide lives (lib/targets/python/worker-url.ts), so downloading and compiling overlap with the page
 * still loading and with the kernel's init message on its way.
 */
import type { PyodideAPI } from 'pyodide';
import pythonSources, { pythonStart, snapshotFileName as builtSnapshotFileName } from 'virtual:python-sources';
import { BOOT_PARAMS } from '@/lib/targets/python/worker-url';
import { readLockFile, type LockFile } from './packages';
import { snapshotDigestOf } from '@/lib/targets/python/snapshot-digest.client';
import { sha256Hex, snapshotStore } from './snapshot-store';

export type InterpreterLocation = { indexURL: string; packageBaseUrl: string; packageLockUrl: string };
/**
 * `snapshot.kept`: the SHA-256 of the snapshot now kept in Cache Storage, for the page to record
 * (lib/targets/python/snapshot-digest.client.ts); `snapshot.discarded`: a kept snapshot was not restored, because
 * it did not match the page's record (`mismatch`: written by someone else) or the page had none.
 */
export type SnapshotReport = { kept: string | null; discarded: 'mismatch' | 'unrecorded' | null };
export type Interpreter = { py: PyodideAPI; lock: LockFile; fromSnapshot: boolean; snapshot: SnapshotReport };

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

/**
 * How the interpreter starts, shared with the snapshot build (scripts/build-snapshot.mjs): its
 * environment, where our package lives, and what a snapshot holds beyond Python itself (our package,
 * imported and on sys.path, and the Pyodide modules init() uses; not pyodide.http: the sandbox
 * patches it when code imports it, and importing it was ~60 ms of every first start).
 */
const { packageRoot: PACKAGE_ROOT, env: ENV, preload: PRELOAD } = pythonStart;

/**
 * Run after every restore: a snapshot holds the state of Python's `random` module and the time
 * zone of wherever it was made, so every interpreter restored from one would draw the same
 * "random" numbers, and one built on a server would report the server's zone.
 */
const AFTER_RESTORE = `
import random, time
random.seed()
if hasattr(time, "tzset"):
    time.tzset()
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
 * The snapshot the app's build made (scripts/build-snapshot.mjs), served beside Pyodide's files
 * and cached by the browser as immutable; null when it is not there (a build without it).
 */
async function fetchBuiltSnapshot(indexURL: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const response = await fetch(new URL(builtSnapshotFileName, indexURL));
    if (!response.ok) return null;
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    console.warn('The built Python snapshot could not be fetched; Python starts without it.', error);
    return null;
  }
}

/**
 * Pyodide with our package imported, restored from a memory snapshot: the one this browser keeps
 * (Cache Storage), else the one the build made, which is then kept. Without either (or when one
 * does not load), Python is initialised and imports the package, and a snapshot is made right after
 * the imports (before any JavaScript object is handed to Python, which a snapshot could not hold)
 * and kept.
 */
export async function loadInterpreter({ indexURL, packageBaseUrl, packageLockUrl }: InterpreterLocation): Promise<Interpreter> {
  const lockFile = readLockFile([packageLockUrl, new URL('pyodide-lock.json', indexURL).href]);
  const storeReady = snapshotStore(indexURL, { ENV, PRELOAD, pythonSources });
  const recorded = snapshotDigestOf(self.location.href);
  let discarded: SnapshotReport['discarded'] = null;
  // The snapshot is looked up (read and checked) while Pyodide's script loads. The kept one only
  // when it is what the page recorded: Cache Storage is writable by any context of the origin.
  const found = storeReady.then(async (store) => {
    const kept = await store.load();
    if (kept) {
      const digest = await sha256Hex(kept);
      if (digest === recorded) return { bytes: kept, keep: false, digest };
      discarded = recorded ? 'mismatch' : 'unrecorded';
      if (recorded) console.warn('The Python snapshot kept in this browser is not the one this page recorded; it was discarded.');
      await store.discard();
    }
    const built = await fetchBuiltSnapshot(indexURL);
    return built ? { bytes: built, keep: true, digest: await sha256Hex(built) } : null;
  });
  const [{ loadPyodide }, store, snapshot] = await Promise.all([
    import(/* webpackIgnore: true */ `${indexURL}pyodide.mjs`) as Promise<{ loadPyodide: LoadPyodide }>,
    storeReady,
    found,
  ]);
  const options = { indexURL, packageBaseUrl, lockFileContents: lockFile, env: ENV, stdout: () => undefined, stderr: () => undefined };
  let restored: PyodideAPI | null = null;
  if (snapshot) {
    try {
      restored = await loadPyodide({ ...options, _loadSnapshot: snapshot.bytes });
      installPythonPackage(restored);
      restored.runPython(AFTER_RESTORE);
    } catch (error) {
      restored = null;
      console.warn('A Python memory snapshot did not load; Python starts without it.', error);
      await store.discard(); // from another build, or damaged: make a new one below
    }
  }
  if (restored && snapshot) {
    if (snapshot.keep) void store.save(snapshot.bytes as Uint8Array<ArrayBuffer>);
    return { py: restored, lock: await lockFile, fromSnapshot: true, snapshot: { kept: snapshot.digest, discarded } };
  }
  const py = await loadPyodide({ ...options, _makeSnapshot: true });
  installPythonPackage(py);
  py.runPython(PRELOAD);
  const bytes = (py as unknown as SnapshotMaker).makeMemorySnapshot();
  const digest = await sha256Hex(bytes);
  void store.save(bytes);
  return { py, lock: await lockFile, fromSnapshot: false, snapshot: { kept: digest, discarded } };
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
