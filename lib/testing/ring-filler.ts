/**
 * The helper side of lib/files/prefetch-ring.ts in a Node worker thread, for its test: fills the
 * ring from a file held in shared memory (`workerData.source`), as lib/files/blob-prefetch.worker.ts
 * does from a dropped File with FileReaderSync, and counts its reads in `workerData.reads`.
 */
import { workerData } from 'node:worker_threads';
import { fillRing, type Ring } from '@/lib/files/prefetch-ring';

const { ring, source, reads } = workerData as { ring: Ring; source: SharedArrayBuffer; reads: SharedArrayBuffer };
const bytes = new Uint8Array(source);
const count = new Int32Array(reads);
fillRing(ring, (target, position) => {
  Atomics.add(count, 0, 1);
  const chunk = bytes.subarray(position, Math.min(position + target.byteLength, bytes.byteLength));
  target.set(chunk);
  return chunk.byteLength;
});
