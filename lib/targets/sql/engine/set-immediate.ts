/**
 * exceljs carries the `setimmediate` polyfill, which, in a worker whose `importScripts` the lockdown
 * removed (lib/targets/shared/engine/lockdown.ts), takes itself for a window and calls `postMessage(message, '*')` as
 * it loads: a TypeError in a worker, and the readers' bundle would not load. A `setImmediate` made
 * of timers, defined before exceljs loads, keeps the polyfill from installing itself.
 */
const scope = globalThis as { setImmediate?: (callback: (...args: unknown[]) => void, ...args: unknown[]) => unknown };
scope.setImmediate ??= (callback, ...args) => setTimeout(callback, 0, ...args);

export {};
