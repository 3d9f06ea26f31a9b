/**
 * Defence in depth (the boundary is the worker script's CSP, see ARCHITECTURE.md "Sandbox"): removes
 * network and storage APIs from the worker's global scope and its prototype chain before user
 * code runs. The kernel keeps its own fetch for package loading, lent back only while it loads.
 */
export const BLOCKED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'EventSource',
  'importScripts',
  'indexedDB',
  'caches',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
  'WebTransport',
  'navigator',
] as const;

type Scope = Record<string, unknown>;

/** Removes `name` from the worker's global scope and its prototype chain. */
export function removeEverywhere(name: string): void {
  let target: object | null = globalThis;
  while (target) {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (descriptor) {
      if (descriptor.configurable) {
        delete (target as Scope)[name];
      } else if (descriptor.writable) {
        (target as Scope)[name] = undefined;
      }
    }
    target = Object.getPrototypeOf(target);
  }
}

export type KernelNetwork = {
  /** Runs `task` with the kernel's fetch restored on the global scope (Pyodide looks it up there). */
  withFetch<T>(task: () => Promise<T>): Promise<T>;
};

/**
 * `packageSources` are the URL prefixes the loader may fetch from. While it loads, Python code
 * of an earlier, still-awaiting run could pick up the global `fetch`: what it gets is a wrapper
 * that refuses any other URL, and refuses everything once the load is over.
 */
export function lockDown(packageSources: string[]): KernelNetwork {
  const kernelFetch = globalThis.fetch.bind(globalThis);
  for (const name of BLOCKED_GLOBALS) removeEverywhere(name);
  let lent = 0;
  const loaderFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), self.location.href).href;
    if (lent === 0 || !packageSources.some((prefix) => url.startsWith(prefix))) {
      return Promise.reject(new TypeError('network is disabled in this sandbox'));
    }
    return kernelFetch(input, init);
  };
  return {
    async withFetch(task) {
      lent += 1;
      (globalThis as unknown as Scope).fetch = loaderFetch;
      try {
        return await task();
      } finally {
        lent -= 1;
        if (lent === 0) removeEverywhere('fetch');
      }
    },
  };
}
