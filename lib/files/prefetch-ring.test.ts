/**
 * The ring a helper fills ahead of a sequential reader (lib/files/prefetch-ring.ts), with the
 * helper in a worker thread of its own, as the browser's is: every read returns the file's own
 * bytes whatever the pattern (sequential as DuckDB's CSV reader, random as Parquet's, jumps back),
 * a sequential reader is served from the ring, and a random one costs no reads it did not ask for.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRing, ringAlive, RingReader, stopRing, type Ring } from './prefetch-ring';

const SIZE = 3_000_003; // not a multiple of anything below
/** The smallest read from the file's start taken for a scan (prefetch-ring.ts), in this test's files. */
const SCAN_START = 1024 * 1024;
const source = new SharedArrayBuffer(SIZE);
new Uint8Array(source).set(randomBytes(SIZE));
const file = new Uint8Array(source);

const direct = (target: Uint8Array, position: number) => {
  const chunk = file.subarray(position, Math.min(position + target.byteLength, SIZE));
  target.set(chunk);
  return chunk.byteLength;
};

let running: { worker: Worker; ring: Ring } | null = null;
afterEach(async () => {
  if (!running) return;
  const exited = once(running.worker, 'exit');
  stopRing(running.ring);
  await exited;
  running = null;
});

/** A ring of `slotBytes` slots and its helper thread, once its loop runs; the helper's read count. */
async function startHelper(slotBytes: number) {
  const ring = createRing(SIZE, slotBytes);
  const reads = new SharedArrayBuffer(4);
  // TypeScript in a worker thread: tsx registered in that thread, then the helper imported.
  const filler = pathToFileURL(path.resolve('lib/testing/ring-filler.ts')).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(filler)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { ring, source, reads } });
  worker.on('error', (error) => {
    throw error;
  });
  running = { worker, ring };
  await vi.waitFor(() => expect(ringAlive(ring)).toBe(true), { timeout: 30_000 });
  return { reader: new RingReader(ring, direct), helperReads: () => Atomics.load(new Int32Array(reads), 0) };
}

function expectBytes(got: Uint8Array, position: number) {
  expect(Buffer.compare(got, file.subarray(position, position + got.byteLength))).toBe(0);
}

describe('a file read ahead in a ring by another thread', () => {
  it('serves a sequential reader (32 MB reads over 32 MiB slots, scaled) from the ring, byte for byte', async () => {
    const { reader } = await startHelper(65_536);
    const readBytes = 62_500; // DuckDB's 32,000,000 against the ring's 33,554,432, scaled down
    const got = new Uint8Array(SIZE);
    let position = 0;
    while (position < SIZE) {
      const n = reader.read(got.subarray(position, position + (position === 0 ? SCAN_START : readBytes)), position);
      expect(n).toBeGreaterThan(0);
      position += n;
    }
    expectBytes(got, 0);
    expect(reader.counts.fromRing + reader.counts.direct).toBe(SIZE);
    // Only the first read is its own: a large read from the file's start begins a scan.
    expect(reader.counts.direct).toBe(SCAN_START);
  });

  it('reads at random places (a Parquet footer, then column chunks) correctly, and reads none ahead of them', async () => {
    const { reader, helperReads } = await startHelper(65_536);
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 300; i += 1) {
      const position = Math.floor(random() * SIZE);
      const target = new Uint8Array(1 + Math.floor(random() * 100_000));
      const n = reader.read(target, position);
      expect(n).toBe(Math.min(target.byteLength, SIZE - position));
      expectBytes(target.subarray(0, n), position);
    }
    expect(reader.counts.fromRing).toBe(0);
    expect(helperReads()).toBe(0);
  });

  it('follows a reader that goes back and reads on from there, and ends at the end of the file', async () => {
    const { reader } = await startHelper(40_000);
    const runs = [
      [0, 900_000],
      [100_000, 2_000_000],
      [2_500_000, SIZE],
    ] as const;
    for (const [from, to] of runs) {
      for (let position = from; position < to; ) {
        const target = new Uint8Array(Math.min(30_001, to - position));
        const n = reader.read(target, position);
        expect(n).toBe(target.byteLength);
        expectBytes(target, position);
        position += n;
      }
    }
    expect(reader.read(new Uint8Array(10), SIZE)).toBe(0);
    const tail = new Uint8Array(10);
    expect(reader.read(tail, SIZE - 4)).toBe(4);
    expectBytes(tail.subarray(0, 4), SIZE - 4);
    expect(reader.counts.fromRing).toBeGreaterThan(0);
  });

  it('reads ahead of a scan that reads the file’s start twice (a sniff, then the scan) without starting over', async () => {
    const { reader } = await startHelper(65_536);
    const sniff = new Uint8Array(SCAN_START);
    expect(reader.read(sniff, 0)).toBe(SCAN_START);
    expectBytes(sniff, 0);
    const got = new Uint8Array(SIZE);
    for (let position = 0; position < SIZE; ) position += reader.read(got.subarray(position, position + SCAN_START), position);
    expectBytes(got, 0);
    expect(reader.counts.direct).toBe(2 * SCAN_START);
  });
});
