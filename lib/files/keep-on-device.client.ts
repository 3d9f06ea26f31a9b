/**
 * Keeps a file on this device (issue 39): the keep worker (lib/files/device-keep.worker.ts) copies it
 * into the device's datasets directory and hashes it in one pass, off the page's thread; this module
 * starts it, reports progress, and words what went wrong for the person (storage full: how much the
 * browser allows and what to do). The first file kept asks the browser to keep the storage
 * (navigator.storage.persist()), so it is not evicted under pressure.
 */
import 'client-only';
import { formatBytes } from '@/lib/format';
import { deviceStorageAvailable } from './device-files.client';
import { DEVICE_KEEP_WORKER_URL, keepReplySchema, type KeepFailureReason, type KeepRequest } from './device-keep-protocol';
import { onInPlaceReads } from './in-place-reads';

export type KeepOutcome =
  | { kind: 'kept'; sha256: string; size: number }
  | { kind: 'different'; sha256: string; size: number }
  | { kind: 'failed'; message: string };

export type KeepOptions = {
  name: string;
  mediaType: string;
  /** Keep it only if it is this file (checked by SHA-256): the same file dropped again. */
  expectedSha256?: string;
  /** The salts `expectedSha256` was made with, when it is a value a share showed (lib/security/salted-hash.ts). */
  expectedSalts?: string[];
  onProgress?: (written: number, total: number) => void;
  signal?: AbortSignal;
};

/** Copies `file` into the device's storage; resolves with its SHA-256, or what went wrong in words. Never rejects. */
export async function keepOnDevice(file: Blob, options: KeepOptions): Promise<KeepOutcome> {
  if (!deviceStorageAvailable() || typeof Worker === 'undefined') return { kind: 'failed', message: await failureWords('unavailable', file.size, options.name) };
  await askToPersist();
  const worker = new Worker(DEVICE_KEEP_WORKER_URL, { type: 'module', name: 'device-keep' });
  // A second instance hashes the chunks the first writes, meanwhile (lib/files/device-keep-protocol.ts).
  const hashWorker = new Worker(DEVICE_KEEP_WORKER_URL, { type: 'module', name: 'device-keep-hash' });
  const channel = new MessageChannel();
  hashWorker.postMessage({ type: 'hash', port: channel.port1 } satisfies KeepRequest, [channel.port1]);
  // While a run reads a dropped file in place, the keep waits between chunks and goes on after
  // (lib/files/in-place-reads.ts): the run's reads then have the disk and the cores to themselves.
  let paused = false;
  const stopFollowing = onInPlaceReads((reading) => {
    if (reading === paused) return;
    paused = reading;
    worker.postMessage({ type: reading ? 'pause' : 'resume' } satisfies KeepRequest);
  });
  try {
    const outcome = await new Promise<KeepOutcome | { kind: 'failure'; reason: KeepFailureReason }>((resolve) => {
      const cancel = () => worker.postMessage({ type: 'cancel' } satisfies KeepRequest);
      if (options.signal?.aborted) return resolve({ kind: 'failure', reason: 'cancelled' });
      options.signal?.addEventListener('abort', cancel, { once: true });
      worker.addEventListener('message', (event: MessageEvent) => {
        const reply = keepReplySchema.safeParse(event.data);
        if (!reply.success) return resolve({ kind: 'failure', reason: 'storage' });
        const data = reply.data;
        if (data.type === 'progress') options.onProgress?.(data.written, data.total);
        else if (data.type === 'failed') {
          if (data.reason === 'storage') console.warn(`Keeping ${options.name} on this device failed:`, data.detail);
          resolve({ kind: 'failure', reason: data.reason });
        } else resolve({ kind: data.type, sha256: data.sha256, size: data.size });
      });
      for (const failing of [worker, hashWorker]) {
        failing.addEventListener('error', (event) => {
          console.warn('The keep worker failed:', event.message);
          resolve({ kind: 'failure', reason: 'storage' });
        });
      }
      const request: KeepRequest = { type: 'keep', file, name: options.name, mediaType: options.mediaType, ...(options.expectedSha256 && { expectedSha256: options.expectedSha256 }), ...(options.expectedSalts?.length && { expectedSalts: options.expectedSalts }), hashPort: channel.port2 };
      worker.postMessage(request, [channel.port2]);
    });
    if (outcome.kind === 'failure') return { kind: 'failed', message: await failureWords(outcome.reason, file.size, options.name) };
    return outcome;
  } finally {
    stopFollowing();
    worker.terminate();
    hashWorker.terminate();
  }
}

let persistAsked = false;

/** Asks once per page that the browser keep this site's storage (it may say no: then files can be evicted under pressure). */
async function askToPersist(): Promise<void> {
  if (persistAsked || typeof navigator.storage?.persist !== 'function') return;
  persistAsked = true;
  if (await navigator.storage.persisted()) return;
  const granted = await navigator.storage.persist();
  if (!granted) console.info('The browser did not grant persistent storage; files kept on this device may be removed when the disk is short of space.');
}

/** How much the browser allows this site and how much is used, in words, or null when it does not say. */
export async function storageWords(): Promise<string | null> {
  if (typeof navigator.storage?.estimate !== 'function') return null;
  const { quota, usage } = await navigator.storage.estimate();
  if (quota === undefined) return null;
  return `this browser allows this site ${formatBytes(quota)}${usage !== undefined ? ` and ${formatBytes(usage)} is in use` : ''}`;
}

async function failureWords(reason: KeepFailureReason, size: number, name: string): Promise<string> {
  switch (reason) {
    case 'quota': {
      const allowed = await storageWords();
      return `There is not enough room on this device to keep “${name}” (${formatBytes(size)})${allowed ? `: ${allowed}` : ''}. Remove files you no longer need in My datasets, free disk space, or keep it in your account instead.`;
    }
    case 'unavailable':
      return `This browser cannot keep files on the device (a private window or a storage setting). Keep “${name}” in your account instead, or use a normal window.`;
    case 'unreadable':
      return `“${name}” could not be read: it may have been moved or changed since it was chosen. Add it again.`;
    case 'cancelled':
      return 'Keeping the file was cancelled.';
    case 'storage':
      return `Keeping “${name}” on this device failed: the browser's storage did not accept it. Try again, or keep it in your account instead.`;
  }
}
