/**
 * The Python worker the page's boot script starts (lib/targets/python/engine/python-boot.client.ts), handed to the
 * first kernel. The interpreter then loads while the page's JavaScript downloads and hydrates,
 * instead of after it. Later kernels (restarts, other conversations) start their own.
 */
import 'client-only';
import { withSnapshotDigest } from './snapshot-digest.client';
import { isPythonWorkerUrl, PYTHON_WORKER_OPTIONS } from './worker-url';

export const BOOT_WORKER_GLOBAL = '__runpadBootWorker';

/** A started worker waiting for its kernel, or 'taken' once a kernel has looked (then nothing starts). */
type BootSlot = { url: string; worker: Worker } | 'taken';
type BootScope = { [BOOT_WORKER_GLOBAL]?: BootSlot };

declare global {
  interface Window {
    [BOOT_WORKER_GLOBAL]?: BootSlot;
  }
}

/** Started with the page's record of its kept snapshot's digest (lib/targets/python/snapshot-digest.client.ts). */
const startWorker = (url: string) => new Worker(withSnapshotDigest(url), PYTHON_WORKER_OPTIONS);

/**
 * Run by the boot script: starts the worker at `url`, unless one was started already or a kernel
 * has already started its own (a script that arrives after hydration would only waste a worker).
 */
export function startBootWorker(scope: BootScope, url: string, start: (url: string) => Worker = startWorker): void {
  if (scope[BOOT_WORKER_GLOBAL] !== undefined || !isPythonWorkerUrl(url)) return;
  try {
    scope[BOOT_WORKER_GLOBAL] = { url, worker: start(url) };
  } catch {
    // The kernel starts its own and reports what fails.
  }
}

/** The boot worker if it was started for this URL; taken once. */
export function takeBootWorker(url: string, scope: BootScope | undefined = typeof window === 'undefined' ? undefined : window): Worker | null {
  if (!scope) return null;
  const boot = scope[BOOT_WORKER_GLOBAL];
  scope[BOOT_WORKER_GLOBAL] = 'taken';
  if (!boot || boot === 'taken') return null;
  if (boot.url === url) return boot.worker;
  boot.worker.terminate(); // started for another configuration: of no use
  return null;
}
