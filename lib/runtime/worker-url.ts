/**
 * The Python worker's URL. It names where Pyodide and the packages come from, so the worker can
 * start loading the interpreter as soon as its script runs — before the kernel's init message,
 * and even before the page has hydrated (see components/chat/kernel-boot.tsx).
 */
const WORKER_PATH = '/workers/python.worker.mjs';

/** Query parameter names, read back by the worker (workers/interpreter.ts). */
export const BOOT_PARAMS = { index: 'index', packages: 'packages', lock: 'lock' } as const;

export type WorkerLocation = { pyodideIndexPath: string; packageBaseUrl: string; packageLockUrl: string };

/** A relative URL, identical on the server (boot script) and in the browser (kernel). */
export function pythonWorkerUrl({ pyodideIndexPath, packageBaseUrl, packageLockUrl }: WorkerLocation): string {
  const query = new URLSearchParams({ [BOOT_PARAMS.index]: pyodideIndexPath, [BOOT_PARAMS.packages]: packageBaseUrl, [BOOT_PARAMS.lock]: packageLockUrl });
  return `${WORKER_PATH}?${query.toString()}`;
}
