/**
 * A helper worker that reads a dropped file ahead of the engine reading it in place
 * (lib/files/prefetch-ring.ts, lib/files/blob-prefetch.worker.ts). Started by the page, which holds
 * the dropped `File` (an engine's worker may start no worker of its own), for as long as the file is
 * mounted from its drop; its ring is handed to the engine's worker with the mount.
 */
import 'client-only';
import { createRing, SLOT_BYTES, SLOTS, stopRing, type Ring } from './prefetch-ring';

export const BLOB_PREFETCH_WORKER_URL = '/workers/blob-prefetch.worker.mjs';

export type BlobPrefetch = { ring: Ring; stop(): void };

/**
 * Files smaller than this are read directly: all of a 16 MiB file reads in ~50 ms, less than a
 * helper's start. A ring holds at most its file (two slots of half of it, up to 32 MiB each).
 */
export const PREFETCH_MIN_BYTES = 16 * 1024 * 1024;

/**
 * The helper for `file`, or null for a small file or where the page cannot share memory with a
 * worker (then every read is direct).
 */
export function startBlobPrefetch(file: Blob): BlobPrefetch | null {
  if (file.size < PREFETCH_MIN_BYTES) return null;
  if (typeof SharedArrayBuffer === 'undefined' || typeof Worker === 'undefined' || !globalThis.crossOriginIsolated) return null;
  const ring = createRing(file.size, Math.min(SLOT_BYTES, Math.ceil(file.size / SLOTS)));
  const worker = new Worker(BLOB_PREFETCH_WORKER_URL, { type: 'module', name: 'blob-prefetch' });
  worker.postMessage({ file, ring });
  return {
    ring,
    stop: () => {
      stopRing(ring);
      worker.terminate();
    },
  };
}
