/**
 * Keeps a dropped file on this device in one pass off the page's thread: reads it in chunks, writes
 * each into the datasets directory through a synchronous access handle (OPFS's fastest writer,
 * only in a worker) under a temporary name while hashing it (SHA-256, hash-wasm), then names the
 * result by its hash and writes its record (lib/files/device-files.client.ts). With a hash port, a
 * second instance of this worker hashes the written chunks meanwhile (lib/files/device-keep-protocol.ts);
 * hashing is the slowest step (~3.6 s a GB against ~2 s to read and write it). It fetches nothing;
 * its only code beyond this is hash-wasm's embedded WebAssembly. See lib/files/keep-on-device.client.ts.
 */
import { createSHA256 } from 'hash-wasm';
import { deviceDirectory, deviceFile, writeDeviceFileMeta } from '@/lib/files/device-files.client';
import { hashAckSchema, hashChunkSchema, KEEP_CHUNK_BYTES, KEEP_HASH_IN_FLIGHT, keepRequestSchema, type HashAck, type HashChunk, type KeepFailureReason, type KeepReply, type KeepRequest } from '@/lib/files/device-keep-protocol';
import { copyAndHash, KeepGate, type Hasher } from '@/lib/files/keep-copy';
import { isExpectedFile } from '@/lib/security/salted-hash';

/** What OPFS offers in a dedicated worker that TypeScript's DOM library does not declare everywhere. */
type SyncAccessHandle = { write(buffer: Uint8Array, options: { at: number }): number; truncate(size: number): void; flush(): void; close(): void };
type WorkerFileHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle>; move?(name: string): Promise<void> };

let cancelled = false;
/** Closed while a run reads a dropped file in place (the page says `pause`, then `resume`). */
const gate = new KeepGate();

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

async function localHasher(): Promise<Hasher> {
  const hasher = await createSHA256();
  hasher.init();
  return { update: async (buffer) => void hasher.update(new Uint8Array(buffer)), digest: async () => hasher.digest('hex') };
}

/** The hasher worker at the other end of `port`: at most KEEP_HASH_IN_FLIGHT chunks wait for it. */
function remoteHasher(port: MessagePort): Hasher {
  let inFlight = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  let onDigest: ((sha256: string) => void) | null = null;
  let onFailure: ((error: Error) => void) | null = null;
  port.onmessage = (event: MessageEvent) => {
    const ack = hashAckSchema.safeParse(event.data);
    if (ack.success && ack.data.type === 'ack') inFlight -= 1;
    else if (ack.success && ack.data.type === 'digest') onDigest?.(ack.data.sha256);
    else {
      failure = new Error(`the hasher failed: ${ack.success && ack.data.type === 'failed' ? ack.data.detail : 'an unreadable reply'}`);
      onFailure?.(failure);
    }
    const waiting = wake;
    wake = null;
    waiting?.();
  };
  return {
    async update(buffer) {
      if (failure) throw failure;
      port.postMessage({ type: 'chunk', bytes: buffer } satisfies HashChunk, [buffer]);
      inFlight += 1;
      while (inFlight >= KEEP_HASH_IN_FLIGHT && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
    },
    digest() {
      return new Promise<string>((resolve, reject) => {
        if (failure) return reject(failure);
        onDigest = resolve;
        onFailure = reject;
        port.postMessage({ type: 'end' } satisfies HashChunk);
      });
    },
  };
}

/** This worker as the hasher: hashes each chunk that arrives on `port`, acknowledges it, and answers the digest at the end. */
async function serveHash(port: MessagePort): Promise<void> {
  const hasher = await createSHA256();
  hasher.init();
  const reply = (message: HashAck) => port.postMessage(message);
  port.onmessage = (event: MessageEvent) => {
    const message = hashChunkSchema.safeParse(event.data);
    if (!message.success) return reply({ type: 'failed', detail: 'an unreadable chunk' });
    if (message.data.type === 'end') return reply({ type: 'digest', sha256: hasher.digest('hex') });
    hasher.update(new Uint8Array(message.data.bytes));
    reply({ type: 'ack' });
  };
}

async function keep({ file, name, mediaType, expectedSha256, expectedSalts, hashPort }: Extract<KeepRequest, { type: 'keep' }>): Promise<void> {
  const dir = await deviceDirectory(true);
  if (!dir) throw new KeepFailure('unavailable');
  const partName = `${crypto.randomUUID()}.part`;
  const part = (await dir.getFileHandle(partName, { create: true })) as WorkerFileHandle;
  let access: SyncAccessHandle | null = await part.createSyncAccessHandle();
  try {
    const hasher = hashPort ? remoteHasher(hashPort) : await localHasher();
    access.truncate(0);
    const writer = access;
    const { size: at, sha256 } = await copyAndHash(file, {
      chunkBytes: KEEP_CHUNK_BYTES,
      write: (bytes, position) => void writer.write(bytes, { at: position }),
      hasher,
      gate,
      cancelled: () => cancelled,
      onCancel: () => new KeepFailure('cancelled'),
      onUnreadable: (error) => (error instanceof DOMException && error.name === 'QuotaExceededError' ? error : new KeepFailure('unreadable')),
      onProgress: (written, total) => post({ type: 'progress', written, total }),
    });
    access.flush();
    access.close();
    access = null;
    if (expectedSha256 !== undefined && !(await isExpectedFile(sha256, { sha256: expectedSha256, salts: expectedSalts }))) {
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
    gate.resume(); // a paused keep goes on only to stop
    return;
  }
  if (request.data.type === 'pause') return gate.pause();
  if (request.data.type === 'resume') return gate.resume();
  if (request.data.type === 'hash') {
    void serveHash(request.data.port);
    return;
  }
  keep(request.data).catch((error: unknown) => {
    post({ type: 'failed', reason: reasonOf(error), detail: (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500) });
  });
});
