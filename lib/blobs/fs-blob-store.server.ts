/**
 * BlobStore on a local directory (a mounted volume in production). Layout: `<root>/<first 2 hex>/<sha256>`,
 * with in-flight uploads in `<root>/tmp/` so a blob only appears under its hash via an atomic rename.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import {
  assertRange,
  assertSha256,
  spoolToFile,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type PutResult,
} from './blob-store.server';

/** Its folders are the server's alone (lib/security/private-files.server.ts: the umask does the files). */
const PRIVATE_DIR_MODE = 0o700;

export function createFsBlobStore(rootDir: string): BlobStore {
  const root = resolve(rootDir);
  const tmpDir = join(root, 'tmp');
  const blobPath = (sha256: string): string => {
    assertSha256(sha256);
    return join(root, sha256.slice(0, 2), sha256);
  };

  return {
    kind: 'filesystem',

    async put(source: BlobSource, options: PutOptions): Promise<PutResult> {
      await mkdir(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const tmp = join(tmpDir, `${randomUUID()}.part`);
      const result = await spoolToFile(source, tmp, { ...options, durable: true });
      try {
        await moveIntoPlace(tmp, blobPath(result.sha256), result.size);
      } finally {
        await rm(tmp, { force: true }); // no-op after a successful rename
      }
      return result;
    },

    async stat(sha256: string): Promise<{ size: number } | null> {
      const info = await stat(blobPath(sha256)).catch(nullIfMissing);
      return info?.isFile() ? { size: info.size } : null;
    },

    async read(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null> {
      if (range) assertRange(range);
      // Open first, then size the open file: a concurrent delete cannot cut the stream short.
      const file = await open(blobPath(sha256), 'r').catch(nullIfMissing);
      if (!file) return null;
      try {
        const { size } = await file.stat();
        if (range && range.start >= size) throw new RangeError(`Range start ${range.start} is past the end (${size} bytes)`);
        return streamFile(file, range);
      } catch (error) {
        await file.close();
        throw error;
      }
    },

    async delete(sha256: string): Promise<void> {
      await rm(blobPath(sha256), { force: true });
    },

    async check(): Promise<void> {
      await mkdir(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await access(root, constants.R_OK | constants.W_OK);
    },
  };
}

/**
 * Renames the finished temp file onto its hash. An existing blob of the right size is kept (same
 * hash, same bytes); one of the wrong size is damaged and gets replaced.
 */
async function moveIntoPlace(tmp: string, target: string, size: number): Promise<void> {
  const existing = await stat(target).catch(nullIfMissing);
  if (existing?.isFile() && existing.size === size) return;
  await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  await rename(tmp, target);
  await syncDirectory(dirname(target));
}

/** Persists the rename itself, so a crash cannot lose a blob the database already points at. */
async function syncDirectory(path: string): Promise<void> {
  const dir = await open(path, 'r').catch(() => null); // not supported on every platform (Windows)
  if (!dir) return;
  try {
    await dir.sync();
  } catch {
    // Best effort: some filesystems reject fsync on directories.
  } finally {
    await dir.close();
  }
}

function streamFile(file: FileHandle, range: ByteRange | undefined): ReadableStream<Uint8Array> {
  // The stream owns the handle from here on and closes it when it ends, errors or is cancelled.
  const nodeStream = file.createReadStream(range ? { start: range.start, end: range.end } : {});
  return Readable.toWeb(nodeStream) as unknown as ReadableStream<Uint8Array>;
}

function nullIfMissing(error: unknown): null {
  if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return null;
  throw error;
}
