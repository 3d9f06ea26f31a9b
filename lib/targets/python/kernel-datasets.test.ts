import { describe, expect, it } from 'vitest';
import { newDropId } from '@/lib/files/data-file';
import { KernelDatasets } from './kernel-datasets.client';

describe('KernelDatasets.readsInPlace (a run that may read a dropped file holds keeps until it ends)', () => {
  it('is true while the conversation has a file just dropped, not kept yet, and false once it is kept', () => {
    const datasets = new KernelDatasets();
    expect(datasets.readsInPlace()).toBe(false);
    datasets.set([{ name: 'big.csv', location: 'dropped', dropId: newDropId(), file: new Blob(['x\n1\n']) }]);
    expect(datasets.readsInPlace()).toBe(true);
    datasets.set([{ name: 'big.csv', location: 'device', sha256: 'a'.repeat(64) }]);
    expect(datasets.readsInPlace()).toBe(false);
  });
});
