import { createHash, randomBytes } from 'node:crypto';
import { createSHA256 } from 'hash-wasm';
import { describe, expect, it, vi } from 'vitest';
import { copyAndHash, KeepGate, type Hasher, type KeepSource } from './keep-copy';

/** hash-wasm's SHA-256, as the keep worker hashes. */
async function wasmHasher(): Promise<Hasher> {
  const hasher = await createSHA256();
  hasher.init();
  return { update: async (buffer) => void hasher.update(new Uint8Array(buffer)), digest: async () => hasher.digest('hex') };
}

/** A file of `size` random bytes whose slices (the keep's reads) are recorded, and a sink that records what is written. */
function fixture(size: number) {
  const bytes = randomBytes(size);
  const blob = new Blob([bytes]);
  const reads: [number, number][] = [];
  const source: KeepSource = { size: blob.size, slice: (start?: number, end?: number) => (reads.push([start ?? 0, end ?? blob.size]), blob.slice(start, end)) };
  const kept = new Uint8Array(size);
  let written = 0;
  const write = (chunk: Uint8Array, at: number) => {
    kept.set(chunk, at);
    written += chunk.byteLength;
  };
  return { bytes, source, reads, kept, write, written: () => written };
}

describe('copyAndHash (the keep’s one pass)', () => {
  it('writes every byte and its SHA-256 is node crypto’s of the same bytes', async () => {
    const file = fixture(1_000_003); // not a multiple of the chunk
    const progress: number[] = [];
    const result = await copyAndHash(file.source, { chunkBytes: 65_536, write: file.write, hasher: await wasmHasher(), onProgress: (written) => progress.push(written) });
    expect(result).toEqual({ size: 1_000_003, sha256: createHash('sha256').update(file.bytes).digest('hex') });
    expect(Buffer.from(file.kept).equals(file.bytes)).toBe(true);
    expect(progress.at(-1)).toBe(1_000_003);
    expect(file.reads).toHaveLength(Math.ceil(1_000_003 / 65_536));
  });

  it('an empty file is kept with the SHA-256 of nothing', async () => {
    const file = fixture(0);
    const result = await copyAndHash(file.source, { chunkBytes: 1024, write: file.write, hasher: await wasmHasher() });
    expect(result.sha256).toBe(createHash('sha256').digest('hex'));
    expect(file.reads).toEqual([]);
  });

  it('paused (a run reads a dropped file in place), it reads, writes and hashes nothing more until resumed, then ends with the right hash', async () => {
    const chunk = 1000;
    const file = fixture(10 * chunk);
    const gate = new KeepGate();
    const hashed: number[] = [];
    const inner = await wasmHasher();
    const hasher: Hasher = { update: async (buffer) => (hashed.push(buffer.byteLength), inner.update(buffer)), digest: () => inner.digest() };
    // The run begins while the second chunk is written.
    const copy = copyAndHash(file.source, { chunkBytes: chunk, write: file.write, hasher, gate, onProgress: (written) => void (written === 2 * chunk && gate.pause()) });
    await vi.waitFor(() => expect(gate.waiters).toBe(1));
    expect(file.written()).toBe(2 * chunk);
    expect(hashed).toEqual([chunk, chunk]);
    expect(file.reads).toHaveLength(3); // the third chunk was read ahead before the pause, and no more
    // Still waiting: nothing moved (the copy waits on the gate, not on a timer).
    await Promise.resolve();
    expect(gate.waiters).toBe(1);
    expect(file.written()).toBe(2 * chunk);
    gate.resume();
    const result = await copy;
    expect(result.sha256).toBe(createHash('sha256').update(file.bytes).digest('hex'));
    expect(Buffer.from(file.kept).equals(file.bytes)).toBe(true);
    expect(file.reads).toHaveLength(10);
  });

  it('a keep cancelled while paused stops without writing more', async () => {
    const file = fixture(5000);
    const gate = new KeepGate();
    gate.pause();
    let cancelled = false;
    const copy = copyAndHash(file.source, { chunkBytes: 1000, write: file.write, hasher: await wasmHasher(), gate, cancelled: () => cancelled, onCancel: () => new Error('cancelled') });
    await vi.waitFor(() => expect(gate.waiters).toBe(1));
    cancelled = true;
    gate.resume();
    await expect(copy).rejects.toThrow('cancelled');
    expect(file.written()).toBe(0);
  });
});
