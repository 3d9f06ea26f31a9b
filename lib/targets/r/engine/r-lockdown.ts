/**
 * Defence in depth for R (the boundary is each worker script's CSP, see ARCHITECTURE.md "Sandbox"):
 * R runs in webR's worker, where R code runs JavaScript by design (`webr::eval_js`). Before the
 * first user run, both of R's workers lose what shared code re-run by a reader could use against
 * that reader: storage (Cache Storage holds the Python snapshot, IndexedDB and Cache Storage the
 * kept datasets, `navigator.storage` the origin's private file system), messaging to the origin's
 * other contexts (BroadcastChannel), workers of their own, and sockets. webR's worker keeps
 * `fetch` and `XMLHttpRequest` for what it must reach (its own files, read lazily, and the R package
 * repository) behind a guard that refuses every other URL and cannot be taken off.
 */
import { BLOCKED_GLOBALS, removeEverywhere } from '@/lib/targets/shared/engine/lockdown';

/** What webR's worker loses outright: storage, messaging, workers, sockets, script loading. */
const WEBR_BLOCKED_GLOBALS = ['caches', 'indexedDB', 'BroadcastChannel', 'Worker', 'SharedWorker', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'importScripts'] as const;
/** What `navigator` loses there (it stays: Emscripten reads it): the origin's storage and locks. */
const WEBR_BLOCKED_NAVIGATOR = ['storage', 'locks', 'serviceWorker'] as const;

/** The R worker itself (webR's "main thread"): it needs none of these once R has started. */
export function lockDownRWorker(): void {
  for (const name of BLOCKED_GLOBALS) removeEverywhere(name);
}

/**
 * Runs inside webR's worker, as source text (so it may use nothing but its arguments and the
 * worker's own globals). The originals of `fetch` and `XMLHttpRequest.prototype.open` are kept only
 * in this closure, and `Reflect.apply` is taken before user code could replace it.
 */
function lockDownWebRWorker(blocked: readonly string[], navigatorBlocked: readonly string[], allowed: readonly string[]): string {
  const scope = globalThis as unknown as Record<string, unknown>;
  const apply = Reflect.apply;
  const remove = (target: object | null, name: string) => {
    for (let at = target; at; at = Object.getPrototypeOf(at) as object | null) {
      const descriptor = Object.getOwnPropertyDescriptor(at, name);
      if (!descriptor) continue;
      if (descriptor.configurable) delete (at as Record<string, unknown>)[name];
      else if (descriptor.writable) (at as Record<string, unknown>)[name] = undefined;
    }
  };
  for (const name of blocked) remove(globalThis, name);
  if (typeof navigator !== 'undefined') for (const name of navigatorBlocked) remove(navigator, name);
  const base = self.location.href;
  /** The URL resolved once (a value that names another URL when read twice is read once), or null. */
  const permitted = (url: unknown): string | null => {
    try {
      const href = new URL(String(url), base).href;
      return allowed.some((prefix) => href.startsWith(prefix)) ? href : null;
    } catch {
      return null;
    }
  };
  const refused = () => new TypeError('network is disabled in this sandbox, except webR’s files and the R package repository');
  const XHR = scope.XMLHttpRequest as { prototype: XMLHttpRequest } | undefined;
  if (XHR) {
    const open = XHR.prototype.open;
    const guardedOpen = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
      const href = permitted(url);
      if (href === null) throw refused();
      return apply(open as (...args: unknown[]) => void, this, [method, href, ...rest]);
    };
    Object.defineProperty(XHR.prototype, 'open', { value: guardedOpen, writable: false, configurable: false, enumerable: true });
  }
  const originalFetch = scope.fetch as typeof fetch | undefined;
  remove(globalThis, 'fetch');
  if (originalFetch) {
    const kernelFetch = originalFetch.bind(globalThis);
    const guardedFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const href = permitted(typeof input === 'object' && 'url' in input ? input.url : input);
      if (href === null) return Promise.reject(refused());
      return kernelFetch(typeof input === 'object' && 'url' in input ? input : href, init);
    };
    Object.defineProperty(globalThis, 'fetch', { value: guardedFetch, writable: false, configurable: false, enumerable: true });
  }
  return 'locked';
}

/** The JavaScript webR's worker evaluates (`webr::eval_js`) before the first user run. */
export function webrWorkerLockdownSource(allowedPrefixes: string[]): string {
  return `(${lockDownWebRWorker.toString()})(${JSON.stringify(WEBR_BLOCKED_GLOBALS)}, ${JSON.stringify(WEBR_BLOCKED_NAVIGATOR)}, ${JSON.stringify(allowedPrefixes)})`;
}
