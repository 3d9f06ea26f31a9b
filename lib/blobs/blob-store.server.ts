/**
 * Content-addressed blob storage: the interface every backend implements, plus the helpers they
 * share (hash validation, HTTP Range parsing, and spooling an upload to a temp file while hashing).
 * Blobs are named by the hex sha256 of their bytes; metadata lives elsewhere (the database).
 */
import 'server-only';
import { createHash } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';

export type PutResult = { sha256: string; size: number };

export type BlobSource = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

export type PutOptions = { maxBytes: number; signal?: AbortSignal };

/** Inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export type ByteRange = { start: number; end: number };

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Blob is larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export interface BlobStore {
  readonly kind: 'filesystem' | 's3';
  /**
   * Streams bytes in while hashing (sha256, hex); never holds the whole body in memory. Throws
   * BlobTooLargeError as soon as more than maxBytes arrive; then nothing is kept. The blob becomes
   * visible only when complete (no partial blob is ever readable under its hash). Storing bytes
   * that already exist is a no-op that returns the same result.
   */
  put(source: BlobSource, options: PutOptions): Promise<PutResult>;
  /** Size of a stored blob, or null. */
  stat(sha256: string): Promise<{ size: number } | null>;
  /**
   * A stream of the blob's bytes, or of the inclusive byte range [start, end]; null when absent.
   * `end` past the last byte is clamped; a `start` past the last byte throws RangeError.
   * The caller must consume or cancel the stream (it holds a file or a connection open).
   */
  read(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null>;
  /** Removes the blob; deleting a missing blob is not an error. */
  delete(sha256: string): Promise<void>;
  /** Throws when the store cannot be reached (used by a readiness check). */
  check(): Promise<void>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Throws unless `sha256` is 64 lowercase hex digits; hashes become paths and keys, so this is the guard against traversal. */
export function assertSha256(sha256: unknown): asserts sha256 is string {
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) {
    throw new TypeError('Invalid blob hash: expected 64 lowercase hex digits');
  }
}

/** Throws unless `range` is a well-formed inclusive range (non-negative integers, start <= end). */
export function assertRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}

const RANGE_HEADER = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/**
 * Parses a single-range `Range` header (RFC 9110 §14.1.2) against a representation of `size`
 * bytes. null means "serve the whole body" (no header, multi-range, other units, malformed or
 * invalid like `bytes=5-2`); 'unsatisfiable' means answer 416.
 */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === null) return null;
  const match = RANGE_HEADER.exec(header);
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') return suffixRange(Number(last), size);
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** `bytes=-n`: the last n bytes (all of them when the body is shorter); n = 0 selects nothing. */
function suffixRange(length: number, size: number): ByteRange | 'unsatisfiable' {
  if (length === 0 || size === 0) return 'unsatisfiable';
  return { start: Math.max(0, size - length), end: size - 1 };
}

/**
 * Writes `source` to a new file at `path` while hashing it, enforcing maxBytes and the abort
 * signal. Memory stays bounded by one chunk. On any failure the file is removed before rethrowing,
 * so callers only ever see a complete temp file. `durable` fsyncs before returning.
 */
export async function spoolToFile(
  source: BlobSource,
  path: string,
  options: PutOptions & { durable?: boolean },
): Promise<PutResult> {
  options.signal?.throwIfAborted();
  const chunks = openSource(source);
  const abort = abortWatcher(options.signal);
  const hash = createHash('sha256');
  let size = 0;
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'wx');
    for (;;) {
      // Checked before each read too: a source with data ready would otherwise always win the race.
      options.signal?.throwIfAborted();
      const step = await abort.race(chunks.next());
      if (step.done) break;
      const chunk = asBytes(step.value);
      size += chunk.byteLength;
      if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
      hash.update(chunk);
      await writeAll(file, chunk);
    }
    if (options.durable) await file.sync();
    await file.close();
    return { sha256: hash.digest('hex'), size };
  } catch (error) {
    // Stop the producer (e.g. cancel an HTTP body) without waiting for it: it may be stuck.
    chunks.return?.().catch(() => {});
    await file?.close().catch(() => {}); // the original error is thrown below; the partial file is removed either way
    await rm(path, { force: true });
    throw error;
  } finally {
    abort.dispose();
  }
}

/**
 * One iterator over either kind of source. Web streams go through a reader rather than their own
 * async iterator, because `reader.cancel()` interrupts a pending read while `iterator.return()` waits for it.
 */
function openSource(source: BlobSource): AsyncIterator<Uint8Array> {
  if (typeof (source as ReadableStream).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
    };
  }
  return (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
}

function asBytes(chunk: unknown): Uint8Array {
  if (!(chunk instanceof Uint8Array)) throw new TypeError('Blob sources must yield Uint8Array chunks');
  return chunk;
}

/** fs write may be partial; loop until the whole chunk is on disk. */
async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/** Lets a pending read lose to an abort, so a stalled source cannot hold a put (and its temp file) open. */
function abortWatcher(signal: AbortSignal | undefined): {
  race<T>(pending: Promise<T>): Promise<T>;
  dispose(): void;
} {
  if (!signal) return { race: (pending) => pending, dispose: () => {} };
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // observed only through race(); avoid an unhandled rejection
  return {
    race(pending) {
      pending.catch(() => {}); // a read that loses the race may still reject later
      return Promise.race([pending, aborted]);
    },
    dispose: () => signal.removeEventListener('abort', onAbort),
  };
}
