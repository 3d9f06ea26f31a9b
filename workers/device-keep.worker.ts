/**
 * Keeps a dropped file on this device in one pass off the page's thread: reads it in chunks, writes
 * each into the datasets directory through a synchronous access handle (OPFS's fastest writer,
 * only in a worker) under a temporary name while hashing it (SHA-256, hash-wasm), then names the
 * result by its hash and writes its record (lib/files/device-files.client.ts). It fetches nothing;
 * its only code beyond this is hash-wasm's embedded WebAssembly. See lib/files/keep-on-device.client.ts.
 */
import { createSHA256 } from 'hash-wasm';
import { deviceDirectory, deviceFile, writeDeviceFileMeta } from '@/lib/files/device-files.client';
import { KEEP_CHUNK_BYTES, keepRequestSchema, type KeepFailureReason, type KeepReply, type KeepRequest } from '@/lib/files/device-keep-protocol';

/** What OPFS offers in a dedicated worker that TypeScript's DOM library does not declare everywhere. */
type SyncAccessHandle = { write(buffer: Uint8Array, options: { at: number }): number; truncate(size: number): void; flush(): void; close(): void };
type WorkerFileHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle>; move?(name: string): Promise<void> };

let cancelled = false;

function post(reply: KeepReply): void {
  self.postMessage(reply);
}

class KeepFailure extends Error {
  constructor(readonly reason: KeepFailureReason) {
    super(`keep failed: ${reason}`);
  }
}

function reasonOf(error: unknown): KeepFailureReason {
  if (error instanceof KeepFailure) return error.reason;
  if (error instanceof DOMException && error.name === 'QuotaExceededError') return 'quota';
  if (error instanceof DOMException && (error.name === 'NotReadableError' || error.name === 'NotFoundError')) return 'unreadable';
  return 'storage';
}

async function keep({ file, name, mediaType, expectedSha256 }: Extract<KeepRequest, { type: 'keep' }>): Promise<void> {
  const dir = await deviceDirectory(true);
  if (!dir) throw new KeepFailure('unavailable');
  const partName = `${crypto.randomUUID()}.part`;
  const part = (await dir.getFileHandle(partName, { create: true })) as WorkerFileHandle;
  let access: SyncAccessHandle | null = await part.createSyncAccessHandle();
  try {
    const hasher = await createSHA256();
    hasher.init();
    access.truncate(0);
    let at = 0;
    // The next chunk is read while this one is written and hashed.
    let next: Promise<ArrayBuffer> | null = file.size > 0 ? file.slice(0, KEEP_CHUNK_BYTES).arrayBuffer() : null;
    while (next) {
      const buffer = await next.catch((error: unknown) => {
        throw error instanceof DOMException && error.name === 'QuotaExceededError' ? error : new KeepFailure('unreadable');
      });
      const end = at + buffer.byteLength;
      next = end < file.size ? file.slice(end, end + KEEP_CHUNK_BYTES).arrayBuffer() : null;
      const bytes = new Uint8Array(buffer);
      access.write(bytes, { at });
      hasher.update(bytes);
      at = end;
      if (cancelled) throw new KeepFailure('cancelled');
      post({ type: 'progress', written: at, total: file.size });
    }
    access.flush();
    access.close();
    access = null;
    const sha256 = hasher.digest('hex');
    if (expectedSha256 !== undefined && sha256 !== expectedSha256) {
      await dir.removeEntry(partName);
      post({ type: 'different', sha256, size: at });
      return;
    }
    if (await deviceFile(sha256)) await dir.removeEntry(partName); // the same bytes are kept already
    else if (part.move) await part.move(sha256);
    else throw new KeepFailure('storage');
    await writeDeviceFileMeta(sha256, { name, mediaType, size: at, keptAt: Date.now() });
    post({ type: 'kept', sha256, size: at });
  } catch (error) {
    access?.close();
    await dir.removeEntry(partName).catch(() => undefined); // the part may already be gone: nothing else to free
    throw error;
  }
}

self.addEventListener('message', (event: MessageEvent) => {
  const request = keepRequestSchema.safeParse(event.data);
  if (!request.success) return;
  if (request.data.type === 'cancel') {
    cancelled = true;
    return;
  }
  keep(request.data).catch((error: unknown) => {
    post({ type: 'failed', reason: reasonOf(error), detail: (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500) });
  });
});
