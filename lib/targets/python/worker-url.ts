/**
 * The Python worker's URL. It names where Pyodide and the packages come from, so the worker can
 * start loading the interpreter as soon as its script runs — before the kernel's init message,
 * and even before the page has hydrated (see components/chat/engine-boot.server.tsx).
 */
const WORKER_PATH = '/workers/python.worker.mjs';
/** The page's starter of that worker (lib/targets/python/engine/python-boot.client.ts, built to public/workers/). */
const BOOT_SCRIPT_PATH = '/workers/python-boot.js';

/** The Cache Storage name the worker keeps Pyodide memory snapshots under (engine/snapshot-store.ts); also read by the e2e suite's returning visitors (e2e/test.ts). */
export const SNAPSHOT_CACHE_NAME = 'runpad-pyodide-snapshot-v1';

/** Query parameter names, read back by the worker (lib/targets/python/engine/interpreter.ts). */
export const BOOT_PARAMS = { index: 'index', packages: 'packages', lock: 'lock' } as const;
/** The boot script's one parameter: the worker URL it starts. */
export const BOOT_SCRIPT_PARAM = 'worker';

/** How every Python worker is started (the name shows in the browser's task list). */
export const PYTHON_WORKER_OPTIONS: WorkerOptions = { type: 'module', name: 'python' };

export type WorkerLocation = { pyodideIndexPath: string; packageBaseUrl: string; packageLockUrl: string };

/** A relative URL, identical on the server (boot script) and in the browser (kernel). */
export function pythonWorkerUrl({ pyodideIndexPath, packageBaseUrl, packageLockUrl }: WorkerLocation): string {
  const query = new URLSearchParams({ [BOOT_PARAMS.index]: pyodideIndexPath, [BOOT_PARAMS.packages]: packageBaseUrl, [BOOT_PARAMS.lock]: packageLockUrl });
  return `${WORKER_PATH}?${query.toString()}`;
}

/** Whether `url` is a Python worker URL of this app (the only kind the boot script starts). */
export function isPythonWorkerUrl(url: string): boolean {
  return url.startsWith(`${WORKER_PATH}?`);
}

/** The boot script's URL for the worker at `location`. */
export function pythonBootScriptUrl(location: WorkerLocation): string {
  return `${BOOT_SCRIPT_PATH}?${new URLSearchParams({ [BOOT_SCRIPT_PARAM]: pythonWorkerUrl(location) }).toString()}`;
}
