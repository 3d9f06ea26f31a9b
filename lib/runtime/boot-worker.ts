/**
 * Hands the worker started by the page's boot script (components/chat/kernel-boot.tsx) to the
 * first kernel. The interpreter then loads while the page's JavaScript downloads and hydrates,
 * instead of after it. Later kernels (restarts, other conversations) start their own.
 */
export const BOOT_WORKER_GLOBAL = '__runpadBootWorker';

type BootWorker = { url: string; worker: Worker };

declare global {
  interface Window {
    [BOOT_WORKER_GLOBAL]?: BootWorker;
  }
}

/** The boot worker if it was started for this URL; taken once. */
export function takeBootWorker(url: string): Worker | null {
  if (typeof window === 'undefined') return null;
  const boot = window[BOOT_WORKER_GLOBAL];
  if (!boot) return null;
  delete window[BOOT_WORKER_GLOBAL];
  if (boot.url === url) return boot.worker;
  boot.worker.terminate(); // started for another configuration: of no use
  return null;
}
