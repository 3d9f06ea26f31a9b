/**
 * The keep's one pass (lib/files/device-keep.worker.ts), apart from the worker so it can be tested:
 * reads the file in chunks, writes each where it is kept and hands it to the hasher, reading the
 * next chunk meanwhile, and waits at `gate` between chunks: a run reading a dropped file in place
 * pauses the keep there (lib/files/in-place-reads.ts) and it goes on from the same byte after.
 */

/** SHA-256 of the chunks handed to it, in order; `update` takes the chunk (it may be transferred away). */
export type Hasher = { update(buffer: ArrayBuffer): Promise<void>; digest(): Promise<string> };

/** Paused or not; `wait()` resolves at once when not, else when resumed. */
export class KeepGate {
  private paused = false;
  private waiting: (() => void)[] = [];

  get isPaused(): boolean {
    return this.paused;
  }

  /** How many copies wait here now. */
  get waiters(): number {
    return this.waiting.length;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  wait(): Promise<void> {
    if (!this.paused) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

export type CopyOptions = {
  chunkBytes: number;
  /** Writes `bytes` at `at` where the file is kept (synchronously: an OPFS sync access handle). */
  write(bytes: Uint8Array, at: number): void;
  hasher: Hasher;
  gate?: KeepGate;
  /** Checked after each chunk: true stops the copy with `onCancel`'s error. */
  cancelled?: () => boolean;
  onCancel?: () => Error;
  /** A chunk that could not be read: the error to stop with. */
  onUnreadable?: (error: unknown) => Error;
  onProgress?: (written: number, total: number) => void;
};

function cancelError(options: CopyOptions): Error {
  return options.onCancel ? options.onCancel() : new Error('cancelled');
}

/** What is copied: a Blob (the dropped File), read in slices. */
export type KeepSource = Pick<Blob, 'size' | 'slice'>;

/** Copies `file` through `write` while hashing it; its size and SHA-256 (lowercase hex). */
export async function copyAndHash(file: KeepSource, options: CopyOptions): Promise<{ size: number; sha256: string }> {
  const { chunkBytes, write, hasher, gate } = options;
  let at = 0;
  // The next chunk is read while this one is written and hashed.
  let next: Promise<ArrayBuffer> | null = file.size > 0 ? file.slice(0, chunkBytes).arrayBuffer() : null;
  while (next) {
    const buffer: ArrayBuffer = await next.catch((error: unknown) => {
      throw options.onUnreadable ? options.onUnreadable(error) : error;
    });
    const end = at + buffer.byteLength;
    if (gate?.isPaused) {
      // Paused: no read ahead, no write, no hash until resumed (the chunk in hand waits with it).
      await gate.wait();
      if (options.cancelled?.()) throw cancelError(options);
    }
    next = end < file.size ? file.slice(end, end + chunkBytes).arrayBuffer() : null;
    write(new Uint8Array(buffer), at);
    await hasher.update(buffer); // the buffer goes to the hasher: nothing reads it here after this
    at = end;
    if (options.cancelled?.()) throw cancelError(options);
    options.onProgress?.(at, file.size);
  }
  return { size: at, sha256: await hasher.digest() };
}
