'use client';

import 'client-only';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Kernel, type KernelStart, type KernelState } from './kernel.client';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { pythonWorkerUrl, type WorkerLocation } from './worker-url';

export type KernelLocation = WorkerLocation & { duckdbAssetPath: string; duckdbExtensionUrl: string };
const STARTING: KernelState = { kind: 'starting', phase: 'downloading', restarted: false };
const NOT_STARTED: KernelState = { kind: 'not-started' };

/** A kernel for the page's interpreter at this location (URLs made absolute for the worker). */
export function createKernel({ pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl }: KernelLocation, start: KernelStart = 'now'): Kernel {
  return new Kernel(
    {
    workerUrl: pythonWorkerUrl({ pyodideIndexPath, packageBaseUrl, packageLockUrl }),
    indexURL: new URL(pyodideIndexPath, window.location.origin).href,
    packageBaseUrl: new URL(packageBaseUrl, window.location.origin).href,
    packageLockUrl: new URL(packageLockUrl, window.location.origin).href,
    caps: OUTPUT_CAPS,
    duckdb: { assetUrl: new URL(duckdbAssetPath, window.location.origin).href, extensionRepository: duckdbExtensionUrl },
    },
    start,
  );
}

/** One kernel per mounted conversation, started as the page loads or when first needed (`start`). */
export function useKernel(location: KernelLocation, start: KernelStart = 'now'): Kernel | null {
  const [kernel, setKernel] = useState<Kernel | null>(null);
  const { pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl } = location;
  useEffect(() => {
    const created = createKernel({ pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl }, start);
    // The kernel is an external resource created on mount; publishing it once is intended.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setKernel(created);
    return () => created.dispose();
  }, [pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl, start]);
  return kernel;
}

export function useKernelState(kernel: Kernel | null, start: KernelStart = 'now'): KernelState {
  const before = start === 'now' ? STARTING : NOT_STARTED;
  return useSyncExternalStore(
    (onChange) => kernel?.subscribe(onChange) ?? (() => undefined),
    () => kernel?.state ?? before,
    () => before,
  );
}
