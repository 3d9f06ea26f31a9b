/**
 * SHA-256 of a dataset, and its bytes, read off the page's thread by a small worker
 * (lib/files/dataset-hash.worker.ts), so that checking a 100 MB file before Python sees it does not
 * freeze the page. Where no worker can be started (or it fails), the page does it itself, as
 * before. Browser-only.
 */
import 'client-only';
import { DATASET_HASH_WORKER_URL, hashReplySchema, type HashRequest } from './dataset-hash-protocol.client';
import { sha256Hex } from './sha256.client';

export type Digested = { sha256: string | null; bytes: ArrayBuffer | null };

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 0;
const pending = new Map<number, { resolve: (value: Digested) => void; reject: (error: Error) => void }>();

function hashWorker(): Worker | null {
  if (workerFailed || typeof Worker === 'undefined') return null;
  if (worker) return worker;
  try {
    worker = new Worker(DATASET_HASH_WORKER_URL, { type: 'module', name: 'dataset-hash' });
  } catch {
    workerFailed = true;
    return null;
  }
  worker.addEventListener('message', (event: MessageEvent) => {
    const reply = hashReplySchema.safeParse(event.data);
    if (!reply.success) return;
    const waiting = pending.get(reply.data.id);
    if (!waiting) return;
    pending.delete(reply.data.id);
    if ('error' in reply.data) waiting.reject(new Error(reply.data.error));
    else waiting.resolve({ sha256: reply.data.sha256, bytes: reply.data.bytes });
  });
  worker.addEventListener('error', () => {
    // A worker that cannot load (or dies) is not asked again; what it was doing is done here.
    console.warn('The dataset hash worker failed; datasets are checked on the page instead.');
    workerFailed = true;
    worker = null;
    const waiting = [...pending.values()];
    pending.clear();
    for (const entry of waiting) entry.reject(new Error('the dataset hash worker failed'));
  });
  return worker;
}

/** The Blob's SHA-256 (null without WebCrypto) and, with `keepBytes`, its bytes (a buffer the caller owns). */
export async function digestBlob(blob: Blob, keepBytes: boolean): Promise<Digested> {
  const target = hashWorker();
  if (target) {
    try {
      return await new Promise<Digested>((resolve, reject) => {
        const request: HashRequest = { id: (nextId += 1), blob, keepBytes };
        pending.set(request.id, { resolve, reject });
        target.postMessage(request);
      });
    } catch {
      // fall through: the page reads and hashes it itself
    }
  }
  const buffer = await blob.arrayBuffer();
  return { sha256: await sha256Hex(buffer), bytes: keepBytes ? buffer : null };
}
