/**
 * Datasets kept on the device, seen by an interpreter at /data/<name> without a copy
 * (ARCHITECTURE.md, "Datasets kept on the device"). The page hands the worker the OPFS `File` (a
 * Blob backed by the disk); the worker mounts it read-only with Emscripten's WORKERFS under
 * `/mnt/device/<sha256>/` and links `/data/<name>` to it. Every read is a range read on demand
 * (FileReaderSync on a slice of the Blob), so the wasm heap does not grow with the file's size.
 *
 * WORKERFS reads each request on its own: Python's buffered reader asks for 4 KiB at a time (the
 * block size WORKERFS reports), and a FileReaderSync call per 4 KiB made reading line by line
 * several times slower than the disk. A read-ahead window of `READ_AHEAD_BYTES` outside the wasm
 * heap serves small sequential reads from one FileReaderSync call. (A larger block size cannot be
 * reported to make Python's buffer larger: Emscripten's stat writes st_blksize as 4096 whatever the
 * file system's getattr says.)
 *
 * Used by the Python worker (Pyodide's FS); the same layout is used for R (workers/r.worker.ts).
 */

/** Where kept datasets are mounted, one directory per SHA-256. */
export const DEVICE_MOUNT_ROOT = '/mnt/device';
/** The name of the mounted file inside its directory (one per hash: the same bytes under two names share it). */
export const DEVICE_MOUNT_FILE = 'dataset';
/** Reads smaller than this are served from a window of this size read ahead. */
export const READ_AHEAD_BYTES = 4 * 1024 * 1024;

const SHA256 = /^[0-9a-f]{64}$/;

/** The mounted file's path for a dataset's hash. */
export function deviceMountPath(sha256: string): string {
  if (!SHA256.test(sha256)) throw new TypeError('A device dataset is named by its SHA-256 in lowercase hex.');
  return `${DEVICE_MOUNT_ROOT}/${sha256}/${DEVICE_MOUNT_FILE}`;
}

/** A file name that can live directly in /data (no directory parts, not `.` or `..`). */
export function isDataFileName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !name.includes('/') && !name.includes('\0') && name !== '.' && name !== '..';
}

/** Reads bytes [start, end) of the file (synchronously). */
export type RangeReader = (start: number, end: number) => Uint8Array;

/**
 * Serves reads of a file of `size` bytes: large reads go straight to `readRange`, small ones from a
 * window read ahead (kept outside the wasm heap), refilled when a read leaves it.
 */
export class ReadAhead {
  private window: Uint8Array = new Uint8Array(0);
  private windowStart = 0;

  constructor(
    private readonly size: number,
    private readonly readRange: RangeReader,
    private readonly windowBytes = READ_AHEAD_BYTES,
  ) {}

  /** Copies up to `length` bytes at `position` into `into` at `offset`; the number copied (0 at the end). */
  read(into: Uint8Array, offset: number, length: number, position: number): number {
    if (position >= this.size || length <= 0) return 0;
    const end = Math.min(position + length, this.size);
    if (end - position >= this.windowBytes) {
      const bytes = this.readRange(position, end);
      into.set(bytes, offset);
      return bytes.byteLength;
    }
    let copied = 0;
    while (position + copied < end) {
      const at = position + copied;
      if (at < this.windowStart || at >= this.windowStart + this.window.byteLength) {
        this.windowStart = at;
        this.window = this.readRange(at, Math.min(at + this.windowBytes, this.size));
        if (this.window.byteLength === 0) break; // the file is shorter than it said
      }
      const from = at - this.windowStart;
      const count = Math.min(end - at, this.window.byteLength - from);
      into.set(this.window.subarray(from, from + count), offset + copied);
      copied += count;
    }
    return copied;
  }
}

/** The part of Emscripten's FS the mount uses (Pyodide's `py.FS`, webR's worker `FS`). */
export type EmscriptenFs = {
  filesystems: { WORKERFS: unknown };
  mkdirTree(path: string): void;
  mount(type: unknown, options: { blobs: { name: string; data: Blob }[] }, mountpoint: string): unknown;
  lookupPath(path: string, options?: { follow?: boolean }): { node: unknown };
  analyzePath(path: string, dontResolveLastLink?: boolean): { exists: boolean; object: unknown };
  isMountpoint(node: unknown): boolean;
  unlink(path: string): void;
  symlink(target: string, path: string): void;
};

type WorkerFsNode = {
  contents: Blob;
  size: number;
  stream_ops: {
    read(stream: unknown, buffer: Uint8Array, offset: number, length: number, position: number): number;
  };
};

/** A reader of byte ranges of a Blob, in a worker (FileReaderSync). */
export function blobRangeReader(blob: Blob): RangeReader {
  const reader = new FileReaderSync();
  return (start, end) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, end)));
}

/**
 * Makes `file` readable at `/data/<name>`: mounted (once per hash) under /mnt/device/<sha256>/,
 * read ahead in windows, and linked from /data. A file already at `/data/<name>` (an earlier
 * upload, an earlier link) is replaced by the link.
 */
export function mountDeviceFile(FS: EmscriptenFs, name: string, sha256: string, file: Blob): void {
  if (!isDataFileName(name)) throw new TypeError('A dataset name cannot contain "/".');
  const target = deviceMountPath(sha256);
  const dir = target.slice(0, target.lastIndexOf('/'));
  FS.mkdirTree(dir);
  if (!FS.isMountpoint(FS.lookupPath(dir).node)) {
    FS.mount(FS.filesystems.WORKERFS, { blobs: [{ name: DEVICE_MOUNT_FILE, data: file }] }, dir);
    const node = FS.lookupPath(target).node as WorkerFsNode;
    const ahead = new ReadAhead(node.size, blobRangeReader(node.contents));
    // Per node (WORKERFS shares one stream_ops object between all its files): streams opened
    // later copy the node's operations.
    node.stream_ops = { ...node.stream_ops, read: (_stream, buffer, offset, length, position) => ahead.read(buffer, offset, length, position) };
  }
  FS.mkdirTree('/data');
  const link = `/data/${name}`;
  if (FS.analyzePath(link, true).exists) FS.unlink(link);
  FS.symlink(target, link);
}

/**
 * Removes a link from /data so an uploaded file can be written there (a write through the link
 * would reach the read-only mount). True when there was one.
 */
export function unlinkDeviceLink(FS: EmscriptenFs & { isLink(mode: number): boolean }, path: string): boolean {
  const found = FS.analyzePath(path, true);
  const node = found.object as { mode?: number } | null;
  if (!found.exists || !node || node.mode === undefined || !FS.isLink(node.mode)) return false;
  FS.unlink(path);
  return true;
}
