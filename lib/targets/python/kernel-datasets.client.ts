/**
 * The conversation's datasets in the kernel's interpreters (browser-only): which files the
 * conversation has, which of them each interpreter already holds in /data/ (a fresh one, after a
 * restart or a crash, gets them all again), and how each gets there. Used by the kernel
 * (kernel.client.ts) before every run.
 */
import 'client-only';
import { startBlobPrefetch, type BlobPrefetch } from '@/lib/files/blob-prefetch.client';
import { accountDataset, openDataset } from '@/lib/files/dataset-cache.client';
import { deviceFileHandle } from '@/lib/files/device-files.client';
import { dataFileKey, type DataFile } from '@/lib/files/data-file';
import { RunFailureError } from '@/lib/runtime/run-failure';
import type { RunPhase } from '../runner';
import type { WorkerHandle } from './worker-handle.client';

/** Files that become SQL tables (lib/targets/python/engine/runpad/dataset_tables.py FORMATS). */
const TABLE_FILE = /\.(csv|tsv|json|jsonl|ndjson|parquet|xlsx|arrow|feather)$/i;

export class KernelDatasets {
  private files = new Map<string, DataFile>();
  /** Which files (name@sha) each interpreter already has. */
  private readonly written = new WeakMap<WorkerHandle, Set<string>>();

  /** The helpers reading a dropped file ahead (lib/files/blob-prefetch.client.ts), by drop id, while it is mounted from its drop. */
  private readonly prefetches = new Map<string, BlobPrefetch | null>();

  /** The conversation's files from now on; true when one of them is a table (SQL will want DuckDB). */
  set(files: DataFile[]): boolean {
    this.files = new Map(files.map((file) => [file.name, file]));
    // A dropped file kept (or removed) since is mounted from its kept copy: its helper is done.
    const dropped = new Set(files.flatMap((file) => (file.location === 'dropped' ? [file.dropId] : [])));
    for (const [dropId, prefetch] of this.prefetches) {
      if (dropped.has(dropId)) continue;
      prefetch?.stop();
      this.prefetches.delete(dropId);
    }
    return files.some((file) => TABLE_FILE.test(file.name));
  }

  /** Stops every helper reading a dropped file ahead: the kernel is going away. */
  stopReadingAhead(): void {
    for (const prefetch of this.prefetches.values()) prefetch?.stop();
    this.prefetches.clear();
  }

  /**
   * Fills `handle`'s /data/ with the files it does not have yet. A file just dropped is mounted
   * from its File while it is kept (the next run after the keep links the kept copy). A file kept on the device is
   * mounted where it lies (its OPFS File, read in ranges on demand; a device without it fails the
   * run as `dataset-missing`, `on-device`). An uploaded one is written, from the browser's dataset
   * cache when it has the bytes (a return visit), from the server otherwise
   * (lib/files/dataset-cache.client.ts). Every source is opened first, so the cell says what it
   * waits for, with the size, before the bytes move.
   */
  async fill(handle: WorkerHandle, onPhase?: (phase: RunPhase) => void): Promise<void> {
    const written = this.written.get(handle) ?? new Set<string>();
    this.written.set(handle, written);
    const all = [...this.files.values()].filter((file) => !written.has(dataFileKey(file)));
    if (all.length === 0) return;
    // Just dropped, not kept yet: read in place from the dropped File, under its drop id, at once.
    for (const file of all) {
      if (file.location !== 'dropped') continue;
      if (!this.prefetches.has(file.dropId)) this.prefetches.set(file.dropId, startBlobPrefetch(file.file));
      await handle.mountDeviceFile(file.name, file.dropId, file.file, null, this.prefetches.get(file.dropId)?.ring ?? null);
      written.add(dataFileKey(file));
    }
    const kept = await Promise.all(all.flatMap((file) => (file.location === 'device' ? [file] : [])).map(async (file) => ({ file, kept: await deviceFileHandle(file.sha256, file.salts) })));
    for (const { file, kept: found } of kept) {
      if (!found) throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'on-device' });
      await handle.mountDeviceFile(file.name, file.sha256, found.file, found.handle);
      written.add(dataFileKey(file));
    }
    const files = all.filter((file) => file.location === 'account');
    if (files.length === 0) return;
    const sources = await Promise.all(files.map((file) => openDataset(accountDataset(file))));
    onPhase?.({ kind: 'loading-files', names: files.map((file) => file.name), bytes: sources.reduce((sum, source) => sum + (source.size ?? 0), 0) });
    for (const [i, file] of files.entries()) {
      // A fresh buffer each: transferred to the worker, not copied.
      await handle.writeFile(`/data/${file.name}`, await sources[i].read());
      written.add(dataFileKey(file));
    }
  }
}
