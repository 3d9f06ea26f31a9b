/**
 * The helpers that read a dropped file ahead (lib/files/blob-prefetch.client.ts), as the kernel's
 * datasets start and stop them: one per large dropped file, its ring handed to the interpreter
 * with the mount, stopped once the file is kept and when the kernel goes away; none for a small file.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newDropId, type DataFile } from '@/lib/files/data-file';
import { isRing } from '@/lib/files/prefetch-ring';
import { KernelDatasets } from './kernel-datasets.client';
import type { WorkerHandle } from './worker-handle.client';

vi.mock('client-only', () => ({}));

const started: FakeWorker[] = [];
class FakeWorker {
  terminated = false;
  posted: unknown[] = [];
  constructor(readonly url: string) {
    started.push(this);
  }
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
}

beforeEach(() => {
  started.length = 0;
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('crossOriginIsolated', true);
});
afterEach(() => vi.unstubAllGlobals());

/** An interpreter that records its mounts. */
function fakeHandle() {
  const mounts: Array<{ name: string; key: string; ring: unknown }> = [];
  const handle = { mountDeviceFile: async (name: string, key: string, _file: Blob, _handle: unknown, ring: unknown) => void mounts.push({ name, key, ring }) } as unknown as WorkerHandle;
  return { handle, mounts };
}

/** A dropped file of `bytes` bytes (a sparse Blob is not needed: the size is all that is read). */
const dropped = (name: string, bytes: number): DataFile => ({ name, location: 'dropped', dropId: newDropId(), file: { size: bytes } as Blob });

describe('helpers reading dropped files ahead', () => {
  it('starts one for a large dropped file, hands its ring with the mount, and stops it once the file is kept', async () => {
    const datasets = new KernelDatasets();
    const big = dropped('big.csv', 200 * 1024 * 1024);
    const small = dropped('small.csv', 1024);
    datasets.set([big, small]);
    const { handle, mounts } = fakeHandle();
    await datasets.fill(handle);
    expect(started.map((w) => w.url)).toEqual(['/workers/blob-prefetch.worker.mjs']);
    expect(isRing(mounts.find((m) => m.name === 'big.csv')?.ring)).toBe(true);
    expect(mounts.find((m) => m.name === 'small.csv')?.ring).toBeNull();
    // The same ring for another interpreter (a restart): no second helper.
    const again = fakeHandle();
    await datasets.fill(again.handle);
    expect(started).toHaveLength(1);
    expect(again.mounts.find((m) => m.name === 'big.csv')?.ring).toBe(mounts.find((m) => m.name === 'big.csv')?.ring);
    // Kept: the file is now on the device, by its hash; the helper is done.
    datasets.set([{ name: 'big.csv', location: 'device', sha256: 'a'.repeat(64) }, small]);
    expect(started[0]!.terminated).toBe(true);
  });

  it('stops every helper when the kernel goes away', async () => {
    const datasets = new KernelDatasets();
    datasets.set([dropped('a.csv', 100 * 1024 * 1024), dropped('b.csv', 100 * 1024 * 1024)]);
    await datasets.fill(fakeHandle().handle);
    expect(started).toHaveLength(2);
    datasets.stopReadingAhead();
    expect(started.every((w) => w.terminated)).toBe(true);
  });
});
