/**
 * Contract tests for BlobStore: one suite, run against the filesystem backend and the S3 backend
 * (talking HTTP to a local s3rver). Plus unit tests of parseRange.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError, parseRange, type BlobStore } from './blob-store.server';
import { createFsBlobStore } from './fs-blob-store.server';
import { createS3BlobStore } from './s3-blob-store.server';
import { startS3TestServer, type S3TestServer } from '../testing/s3-server';

type Harness = {
  store: BlobStore;
  /** Files left in the backend's temp/spool directory. */
  tempFiles(): Promise<string[]>;
  /** Number of blobs actually stored, counted behind the store's back. */
  blobCount(): Promise<number>;
};

type Backend = {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  fresh(): Promise<Harness>;
  /** A store of this kind whose storage cannot be reached. */
  unreachable(): Promise<BlobStore>;
};

const tempDirs: string[] = [];
async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `runpad-blobs-${label}-`));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function listFiles(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

const filesystemBackend: Backend = {
  name: 'filesystem',
  start: async () => {},
  stop: async () => {},
  async fresh() {
    const root = await tempDir('fs');
    return {
      store: createFsBlobStore(root),
      tempFiles: () => listFiles(join(root, 'tmp')),
      async blobCount() {
        const shards = (await listFiles(root)).filter((name) => name !== 'tmp');
        const counts = await Promise.all(shards.map(async (shard) => (await listFiles(join(root, shard))).length));
        return counts.reduce((a, b) => a + b, 0);
      },
    };
  },
  async unreachable() {
    const file = join(await tempDir('not-a-dir'), 'file');
    await writeFile(file, 'x');
    return createFsBlobStore(join(file, 'root')); // a path under a regular file cannot be created
  },
};

function s3Backend(): Backend {
  let server: S3TestServer;
  let lister: S3Client;
  let stores = 0;
  const s3Store = (overrides: { bucket?: string; prefix: string; spoolDir: string }) =>
    createS3BlobStore({
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      forcePathStyle: true,
      ...overrides,
    });
  return {
    name: 's3',
    async start() {
      server = await startS3TestServer();
      lister = new S3Client({
        endpoint: server.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
      });
    },
    async stop() {
      lister?.destroy();
      await server?.stop();
    },
    async fresh() {
      const spoolDir = await tempDir('spool');
      const prefix = `test-${++stores}/`; // one bucket, a fresh key space per test
      const store = s3Store({ prefix, spoolDir });
      return {
        store,
        tempFiles: () => listFiles(spoolDir),
        async blobCount() {
          const listed = await lister.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: `${prefix}blobs/` }));
          return listed.KeyCount ?? 0;
        },
      };
    },
    async unreachable() {
      return s3Store({ bucket: 'no-such-bucket', prefix: '', spoolDir: await tempDir('spool') });
    },
  };
}

const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function* chunksOf(bytes: Uint8Array, chunkSize: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += chunkSize) {
    yield bytes.subarray(offset, offset + chunkSize);
  }
}

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  expect(stream).not.toBeNull();
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const never = () => new Promise<never>(() => {});

describe.each([filesystemBackend, s3Backend()])('BlobStore contract: $name', (backend) => {
  let h: Harness;
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  beforeEach(async () => {
    h = await backend.fresh();
  });

  it('has the right kind and passes its readiness check', async () => {
    expect(h.store.kind).toBe(backend.name);
    await expect(h.store.check()).resolves.toBeUndefined();
  });

  it('fails its readiness check when the storage cannot be reached', async () => {
    await expect((await backend.unreachable()).check()).rejects.toThrow();
  });

  it('put then read returns the same bytes and their sha256', async () => {
    const data = randomBytes(3000);
    const result = await h.store.put(chunksOf(data, 1000), { maxBytes: 10_000 });
    expect(result).toEqual({ sha256: sha256Of(data), size: 3000 });
    expect(await readAll(await h.store.read(result.sha256))).toEqual(data);
    expect(await h.store.stat(result.sha256)).toEqual({ size: 3000 });
    expect(await h.tempFiles()).toEqual([]);
  });

  it('accepts a web ReadableStream source', async () => {
    const data = randomBytes(2048);
    const result = await h.store.put(new Blob([data]).stream(), { maxBytes: 2048 });
    expect(result).toEqual({ sha256: sha256Of(data), size: 2048 });
    expect(await readAll(await h.store.read(result.sha256))).toEqual(data);
  });

  it('stores an empty blob', async () => {
    const result = await h.store.put(chunksOf(new Uint8Array(), 1), { maxBytes: 10 });
    expect(result).toEqual({ sha256: sha256Of(new Uint8Array()), size: 0 });
    expect(await h.store.stat(result.sha256)).toEqual({ size: 0 });
    expect((await readAll(await h.store.read(result.sha256))).byteLength).toBe(0);
  });

  it('storing the same bytes twice keeps one blob', async () => {
    const data = randomBytes(500);
    const first = await h.store.put(chunksOf(data, 100), { maxBytes: 1000 });
    const second = await h.store.put(chunksOf(data, 77), { maxBytes: 1000 });
    expect(second).toEqual(first);
    expect(await h.blobCount()).toBe(1);
    expect(await h.tempFiles()).toEqual([]);
  });

  it('concurrent identical puts both succeed with one blob', async () => {
    const data = randomBytes(200_000);
    const results = await Promise.all([0, 1, 2].map(() => h.store.put(chunksOf(data, 16_384), { maxBytes: 1_000_000 })));
    for (const result of results) expect(result).toEqual({ sha256: sha256Of(data), size: data.byteLength });
    expect(await h.blobCount()).toBe(1);
    expect((await readAll(await h.store.read(sha256Of(data)))).equals(data)).toBe(true); // toEqual is slow on big buffers
    expect(await h.tempFiles()).toEqual([]);
  });

  it('rejects a body over maxBytes as soon as it is exceeded, keeping nothing', async () => {
    const data = randomBytes(10_000);
    let pulled = 0;
    async function* counted() {
      for await (const chunk of chunksOf(data, 1000)) {
        pulled++;
        yield chunk;
      }
    }
    await expect(h.store.put(counted(), { maxBytes: 4500 })).rejects.toSatisfy(
      (error) => error instanceof BlobTooLargeError && error.maxBytes === 4500,
    );
    expect(pulled).toBe(5); // stopped at the chunk that crossed the limit
    expect(await h.store.stat(sha256Of(data))).toBeNull();
    expect(await h.store.stat(sha256Of(data.subarray(0, 5000)))).toBeNull();
    expect(await h.blobCount()).toBe(0);
    expect(await h.tempFiles()).toEqual([]);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const data = randomBytes(4096);
    await expect(h.store.put(chunksOf(data, 1000), { maxBytes: 4096 })).resolves.toEqual({ sha256: sha256Of(data), size: 4096 });
  });

  it('a source that throws midway leaves nothing behind', async () => {
    const data = randomBytes(8000);
    async function* failing() {
      yield data.subarray(0, 4000);
      throw new Error('connection reset');
    }
    await expect(h.store.put(failing(), { maxBytes: 100_000 })).rejects.toThrow('connection reset');
    expect(await h.store.stat(sha256Of(data.subarray(0, 4000)))).toBeNull();
    expect(await h.store.stat(sha256Of(data))).toBeNull();
    expect(await h.blobCount()).toBe(0);
    expect(await h.tempFiles()).toEqual([]);
  });

  it('an abort while the source is stalled rejects promptly and leaves nothing behind', async () => {
    const data = randomBytes(8000);
    const controller = new AbortController();
    async function* stalling() {
      yield data.subarray(0, 4000);
      setTimeout(() => controller.abort(), 10);
      await never(); // the rest of the body never arrives
    }
    await expect(h.store.put(stalling(), { maxBytes: 100_000, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(await h.store.stat(sha256Of(data.subarray(0, 4000)))).toBeNull();
    expect(await h.blobCount()).toBe(0);
    expect(await h.tempFiles()).toEqual([]);
  });

  it('an abort midway through a ReadableStream cancels it and leaves nothing behind', async () => {
    const controller = new AbortController();
    let sent = 0;
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull(streamController) {
        if (++sent === 3) controller.abort();
        streamController.enqueue(randomBytes(1000));
      },
      cancel() {
        cancelled = true;
      },
    });
    await expect(h.store.put(source, { maxBytes: 1_000_000, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);
    expect(await h.blobCount()).toBe(0);
    expect(await h.tempFiles()).toEqual([]);
  });

  it('an already-aborted signal stores nothing', async () => {
    const data = randomBytes(100);
    await expect(h.store.put(chunksOf(data, 10), { maxBytes: 1000, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(await h.store.stat(sha256Of(data))).toBeNull();
    expect(await h.tempFiles()).toEqual([]);
  });

  describe('range reads', () => {
    const data = randomBytes(1000);
    let sha256: string;
    beforeEach(async () => {
      sha256 = (await h.store.put(chunksOf(data, 256), { maxBytes: 1000 })).sha256;
    });

    it('first bytes', async () => {
      expect(await readAll(await h.store.read(sha256, { start: 0, end: 9 }))).toEqual(data.subarray(0, 10));
    });

    it('middle', async () => {
      expect(await readAll(await h.store.read(sha256, { start: 100, end: 399 }))).toEqual(data.subarray(100, 400));
    });

    it('suffix, via parseRange', async () => {
      const range = parseRange('bytes=-64', 1000);
      expect(range).toEqual({ start: 936, end: 999 });
      expect(await readAll(await h.store.read(sha256, range as { start: number; end: number }))).toEqual(data.subarray(936));
    });

    it('open-ended, via parseRange', async () => {
      const range = parseRange('bytes=990-', 1000) as { start: number; end: number };
      expect(await readAll(await h.store.read(sha256, range))).toEqual(data.subarray(990));
    });

    it('last byte only', async () => {
      expect(await readAll(await h.store.read(sha256, { start: 999, end: 999 }))).toEqual(data.subarray(999));
    });

    it('clamps an end past the last byte', async () => {
      expect(await readAll(await h.store.read(sha256, { start: 990, end: 5000 }))).toEqual(data.subarray(990));
    });

    it('throws RangeError for a start past the end or a malformed range', async () => {
      await expect(h.store.read(sha256, { start: 1000, end: 1005 })).rejects.toBeInstanceOf(RangeError);
      await expect(h.store.read(sha256, { start: 5, end: 2 })).rejects.toBeInstanceOf(RangeError);
      await expect(h.store.read(sha256, { start: -1, end: 2 })).rejects.toBeInstanceOf(RangeError);
    });

    it('range read of a missing blob is null', async () => {
      expect(await h.store.read(sha256Of(randomBytes(8)), { start: 0, end: 1 })).toBeNull();
    });
  });

  it('read and stat of a missing hash return null', async () => {
    const missing = sha256Of(randomBytes(16));
    expect(await h.store.stat(missing)).toBeNull();
    expect(await h.store.read(missing)).toBeNull();
  });

  it('delete removes the blob and is idempotent', async () => {
    const data = randomBytes(300);
    const keep = randomBytes(300);
    const { sha256 } = await h.store.put(chunksOf(data, 100), { maxBytes: 1000 });
    await h.store.put(chunksOf(keep, 100), { maxBytes: 1000 });
    await h.store.delete(sha256);
    expect(await h.store.stat(sha256)).toBeNull();
    expect(await h.store.read(sha256)).toBeNull();
    await expect(h.store.delete(sha256)).resolves.toBeUndefined();
    expect(await h.store.stat(sha256Of(keep))).toEqual({ size: 300 });
    expect(await h.blobCount()).toBe(1);
  });

  it.each(['../etc/passwd', '', 'A'.repeat(64), `${'a'.repeat(63)}/`, `../${'a'.repeat(61)}`, 'a'.repeat(65)])(
    'rejects the invalid hash %j everywhere',
    async (bad) => {
      await expect(h.store.stat(bad)).rejects.toThrow(/invalid blob hash/i);
      await expect(h.store.read(bad)).rejects.toThrow(/invalid blob hash/i);
      await expect(h.store.read(bad, { start: 0, end: 1 })).rejects.toThrow(/invalid blob hash/i);
      await expect(h.store.delete(bad)).rejects.toThrow(/invalid blob hash/i);
    },
  );

  it('streams a 5 MB body of 64 KiB chunks', async () => {
    const data = randomBytes(5 * 1024 * 1024);
    const result = await h.store.put(chunksOf(data, 64 * 1024), { maxBytes: 5 * 1024 * 1024 });
    expect(result).toEqual({ sha256: sha256Of(data), size: data.byteLength });
    expect(await h.store.stat(result.sha256)).toEqual({ size: data.byteLength });
    const back = await readAll(await h.store.read(result.sha256));
    expect(sha256Of(back)).toBe(result.sha256);
    expect(back.equals(data)).toBe(true);
    expect(await h.tempFiles()).toEqual([]);
  });
});

describe('parseRange', () => {
  it('returns null without a header', () => {
    expect(parseRange(null, 100)).toBeNull();
  });

  it('parses bytes=a-b', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-10', 100)).toEqual({ start: 10, end: 10 });
    expect(parseRange('bytes=0-0', 1)).toEqual({ start: 0, end: 0 });
  });

  it('parses bytes=a- to the end', () => {
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
  });

  it('parses suffix ranges bytes=-n', () => {
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 }); // longer than the body: all of it
  });

  it('clamps the end to size - 1', () => {
    expect(parseRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=0-99999999999999999999', 100)).toEqual({ start: 0, end: 99 });
  });

  it('accepts a case-insensitive unit and optional whitespace', () => {
    expect(parseRange('Bytes=1-2', 100)).toEqual({ start: 1, end: 2 });
    expect(parseRange(' bytes = 1 - 2 ', 100)).toEqual({ start: 1, end: 2 });
  });

  it('reports unsatisfiable ranges', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=100-200', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=500-600', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable');
  });

  it('ignores an invalid range whose last position is before the first (bytes=5-2)', () => {
    expect(parseRange('bytes=5-2', 100)).toBeNull();
  });

  it('ignores multi-range requests', () => {
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('bytes=0-1, -5', 100)).toBeNull();
  });

  it('ignores garbage and other units', () => {
    for (const header of ['', 'bytes', 'bytes=', 'bytes=-', 'bytes=a-b', 'bytes=1.5-3', 'bytes=-1-2', 'bytes=+1-2', 'items=0-5', 'bytes 0-5', '0-5', 'bytes=0x10-']) {
      expect(parseRange(header, 100), header).toBeNull();
    }
  });
});
