/**
 * Datasets kept on the device, seen by an interpreter at /data/<name> without a copy
 * (ARCHITECTURE.md, "Datasets kept on the device"). The page hands the worker the OPFS `File` (a
 * Blob backed by the disk) and its `FileSystemFileHandle`; the worker mounts the File read-only
 * with Emscripten's WORKERFS under `/mnt/device/<sha256>/` and links `/data/<name>` to it. Every
 * read is a range read on demand, so the wasm heap does not grow with the file's size.
 *
 * How a range is read (`DeviceFileReader`): while a run is in progress, through a read-only
 * `FileSystemSyncAccessHandle` (opened by `openDeviceFiles()` before the run, closed after it),
 * straight into the memory that asked (DuckDB's heap, Python's buffer, the read-ahead window): no
 * allocation per read. Outside a run, or where the browser cannot open a read-only handle, with
 * FileReaderSync on a slice of the File, which allocates a new buffer per read: a query over a
 * 5 GB file left gigabytes of them for the collector, which does not run while the worker is busy
 * in a run (bench/RESULTS-device-datasets.md). The handle is held only during runs because a
 * handle, even a read-only one, keeps the file from being removed.
 *
 * Python's buffered reader asks for 4–8 KiB at a time (Emscripten's stat writes st_blksize as 4096
 * whatever the file system's getattr says, so a larger block size cannot be reported): a read-ahead
 * window of `READ_AHEAD_BYTES`, one buffer reused, serves small sequential reads from one read; of
 * `BLOB_READ_AHEAD_BYTES` for a file read with FileReaderSync (a file just dropped), whose reads
 * cost more the smaller they are.
 *
 * A file just dropped is mounted the same way before it is kept (its hash not known yet): the
 * `File` the browser handed the page, read with FileReaderSync, under its drop id; the next run
 * after the keep links /data/<name> to the kept copy instead (docs/DECISIONS.md, 2026-12-07).
 *
 * Used by the Python worker (Pyodide's FS, DuckDB's reads); the same layout is used for R
 * (lib/targets/r/engine/r.worker.ts), whose reads are webR's own WORKERFS.
 */

import { DROP_ID } from '@/lib/files/data-file';
import { RingReader, type Ring } from '@/lib/files/prefetch-ring';

/** Where kept datasets are mounted, one directory per SHA-256. */
export const DEVICE_MOUNT_ROOT = '/mnt/device';
/** The name of the mounted file inside its directory (one per hash: the same bytes under two names share it). */
export const DEVICE_MOUNT_FILE = 'dataset';
/** Reads smaller than this are served from a window of this size read ahead. */
export const READ_AHEAD_BYTES = 4 * 1024 * 1024;
/**
 * The window for a file read through FileReaderSync (a file just dropped): each read is a round trip
 * to the browser and a new buffer, and larger reads run faster (in a worker, 1 MiB reads gave 156 MB/s,
 * 8 MiB 269 MB/s, 32 MiB 413 MB/s: bench/RESULTS-drop.md). DuckDB's own reads are 32 MB already.
 */
export const BLOB_READ_AHEAD_BYTES = 32 * 1024 * 1024;

/** The read-ahead window of a mounted file: larger for one without an OPFS handle (read with FileReaderSync). */
export function readAheadBytes(handle: SyncReadable | null): number {
  return handle ? READ_AHEAD_BYTES : BLOB_READ_AHEAD_BYTES;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The mounted file's path for a dataset's hash, or for a dropped file not kept yet its drop id
 * (`dropped-` and 32 hex digits, lib/files/data-file.ts): read in place from the dropped `File`.
 */
export function deviceMountPath(key: string): string {
  if (!SHA256.test(key) && !DROP_ID.test(key)) throw new TypeError('A device dataset is named by its SHA-256 in lowercase hex, or a dropped one by its drop id.');
  return `${DEVICE_MOUNT_ROOT}/${key}/${DEVICE_MOUNT_FILE}`;
}

/** A file name that can live directly in /data (no directory parts, not `.` or `..`). */
export function isDataFileName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !name.includes('/') && !name.includes('\0') && name !== '.' && name !== '..';
}

/** Reads bytes at `position` into `target` (synchronously); the number read, fewer at the end of the file. */
export type ReadInto = (target: Uint8Array, position: number) => number;

/**
 * Serves reads of a file of `size` bytes: large reads go straight to `readInto`, small ones from a
 * window read ahead (one buffer, reused, outside the wasm heap), refilled when a read leaves it.
 */
export class ReadAhead {
  private window: Uint8Array | null = null;
  private windowStart = 0;
  private windowLength = 0;

  constructor(
    private readonly size: number,
    private readonly readInto: ReadInto,
    private readonly windowBytes = READ_AHEAD_BYTES,
  ) {}

  /** Copies up to `length` bytes at `position` into `into` at `offset`; the number copied (0 at the end). */
  read(into: Uint8Array, offset: number, length: number, position: number): number {
    if (position >= this.size || length <= 0) return 0;
    const end = Math.min(position + length, this.size);
    if (end - position >= this.windowBytes) return this.readInto(into.subarray(offset, offset + (end - position)), position);
    let copied = 0;
    while (position + copied < end) {
      const at = position + copied;
      if (at < this.windowStart || at >= this.windowStart + this.windowLength) {
        this.window ??= new Uint8Array(this.windowBytes);
        this.windowStart = at;
        this.windowLength = this.readInto(this.window.subarray(0, Math.min(this.windowBytes, this.size - at)), at);
        if (this.windowLength === 0) break; // the file is shorter than it said
      }
      const from = at - this.windowStart;
      const count = Math.min(end - at, this.windowLength - from);
      into.set((this.window as Uint8Array).subarray(from, from + count), offset + copied);
      copied += count;
    }
    return copied;
  }
}

/** The part of a read-only FileSystemSyncAccessHandle the reader uses. */
export type SyncReader = { readonly mode?: string; read(target: Uint8Array, options: { at: number }): number; close(): void };
/** The part of a FileSystemFileHandle the reader uses. */
export type SyncReadable = { createSyncAccessHandle(options: { mode: 'read-only' }): Promise<SyncReader> };

/**
 * One file kept on the device, read in ranges: through a read-only sync access handle while one is
 * open (`open()`, before a run), else with FileReaderSync on a slice of the File (see the module comment).
 */
export class DeviceFileReader {
  private access: SyncReader | null = null;
  /** The browser cannot open a handle in read-only mode (it would lock the file for every other reader): never asked again. */
  private noReadOnly = false;
  private blobReader: ((start: number, end: number) => Uint8Array) | null = null;

  constructor(
    private readonly file: Blob,
    private readonly handle: SyncReadable | null,
    /** How the File is read without a handle (FileReaderSync; tests give their own). */
    private readonly readerOfBlob: (blob: Blob) => (start: number, end: number) => Uint8Array = blobRangeReader,
    /**
     * For a file without a handle (one just dropped): the ring a worker the page started fills ahead
     * of sequential reads (lib/files/prefetch-ring.ts, lib/files/blob-prefetch.client.ts).
     */
    private readonly ring: Ring | null = null,
  ) {}

  /** This run's reads through the ring. */
  private ahead: RingReader | null = null;

  get size(): number {
    return this.file.size;
  }

  /** Opens the read-only handle; when it cannot be had (another tab is writing the file, an older browser), reads fall back. */
  async open(): Promise<void> {
    if (!this.handle) {
      if (this.ring) this.ahead ??= new RingReader(this.ring, (target, position) => this.readBlob(target, position));
      return;
    }
    if (this.access || this.noReadOnly) return;
    try {
      const access = await this.handle.createSyncAccessHandle({ mode: 'read-only' });
      // A browser that ignores the mode opens a read-write handle: it takes the file's only lock.
      if (access.mode !== 'read-only') {
        access.close();
        this.noReadOnly = true;
        return;
      }
      this.access = access;
    } catch {
      // Held by a writer, or not supported: FileReaderSync reads it this run.
    }
  }

  close(): void {
    this.access?.close();
    this.access = null;
    this.ahead = null;
  }

  readInto(target: Uint8Array, position: number): number {
    if (position >= this.size || target.byteLength === 0) return 0;
    const length = Math.min(target.byteLength, this.size - position);
    if (this.access) return this.access.read(target.subarray(0, length), { at: position });
    if (this.ahead) return this.ahead.read(target.subarray(0, length), position);
    return this.readBlob(target.subarray(0, length), position);
  }

  private readBlob(target: Uint8Array, position: number): number {
    this.blobReader ??= this.readerOfBlob(this.file);
    const bytes = this.blobReader(position, position + target.byteLength);
    target.set(bytes);
    return bytes.byteLength;
  }
}

/** Every kept file mounted in this worker, by hash; and by its mounted node, for DuckDB's reads. */
const deviceReaders = new Map<string, DeviceFileReader>();
const readerOfNode = new WeakMap<object, DeviceFileReader>();

/** The reader of a mounted node, or null for any other file. */
export function deviceReaderOf(node: unknown): DeviceFileReader | null {
  return typeof node === 'object' && node !== null ? (readerOfNode.get(node) ?? null) : null;
}

/** Opens every mounted file's read-only handle: called before a run. */
export async function openDeviceFiles(): Promise<void> {
  await Promise.all([...deviceReaders.values()].map((reader) => reader.open()));
}

/** Closes them after the run, so the files can be removed from the device. */
export function closeDeviceFiles(): void {
  for (const reader of deviceReaders.values()) reader.close();
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

/** A reader of byte ranges [start, end) of a Blob, in a worker (FileReaderSync): a new buffer per read. */
export function blobRangeReader(blob: Blob): (start: number, end: number) => Uint8Array {
  const reader = new FileReaderSync();
  return (start, end) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, end)));
}

/**
 * Makes `file` readable at `/data/<name>`: mounted (once per hash) under /mnt/device/<sha256>/
 * (a dropped file not kept yet: its `File`, under its drop id, `key`),
 * read ahead in windows, and linked from /data. A file already at `/data/<name>` (an earlier
 * upload, an earlier link) is replaced by the link. `handle` is the file's OPFS handle, for the
 * read-only access handle of each run (null: FileReaderSync reads it); `ring`, for a file without
 * one, the ring a worker the page started fills ahead of sequential reads (lib/files/prefetch-ring.ts).
 */
export function mountDeviceFile(FS: EmscriptenFs, name: string, key: string, file: Blob, handle: SyncReadable | null, ring: Ring | null = null): void {
  if (!isDataFileName(name)) throw new TypeError('A dataset name cannot contain "/".');
  const target = deviceMountPath(key);
  const dir = target.slice(0, target.lastIndexOf('/'));
  FS.mkdirTree(dir);
  if (!FS.isMountpoint(FS.lookupPath(dir).node)) {
    FS.mount(FS.filesystems.WORKERFS, { blobs: [{ name: DEVICE_MOUNT_FILE, data: file }] }, dir);
    const node = FS.lookupPath(target).node as WorkerFsNode;
    const reader = new DeviceFileReader(node.contents, handle, blobRangeReader, handle ? null : ring);
    deviceReaders.set(key, reader);
    readerOfNode.set(node, reader);
    const ahead = new ReadAhead(node.size, (into, position) => reader.readInto(into, position), readAheadBytes(handle));
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
