'use client';

import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Kernel, PackageSourceState } from '@/lib/targets/python/kernel';
import type { TargetId } from '@/lib/targets/registry';
import type { RunnerSource } from '@/lib/targets/runners';

/** Whether this browser can download packages: asked once the interpreter is up, 'unknown' until then. */
export function usePackageSource(kernel: Kernel | null): PackageSourceState {
  const [state, setState] = useState<PackageSourceState>('unknown');
  useEffect(() => {
    if (!kernel) return;
    let current = true;
    void kernel.packageSource().then((answer) => {
      if (current) setState(answer);
    });
    return () => {
      current = false;
    };
  }, [kernel]);
  return state;
}

/**
 * What a target's engine found of its own package source when it started (R asks its repository
 * once, as R starts: never at page load). 'unknown' until that engine has started.
 */
export function useRunnerPackageSource(runners: RunnerSource, target: TargetId): PackageSourceState {
  const subscribe = useCallback((onChange: () => void) => runners.get(target).subscribe(onChange), [runners, target]);
  const read = useCallback(() => runners.get(target).packageSource?.() ?? 'unknown', [runners, target]);
  return useSyncExternalStore(subscribe, read, () => 'unknown');
}

/** Whether each language's package source answers, as the page last learnt it. */
export type PackageSources = { python: PackageSourceState; r: PackageSourceState };

/**
 * The page's latest answers, for the chat transport (made once per conversation, reading them at
 * each request). One page has one interpreter and one R, so one value each per page is the truth.
 */
let latest: PackageSources = { python: 'unknown', r: 'unknown' };
export const rememberPackageSources = (sources: PackageSources): void => {
  latest = sources;
};
export const lastPackageSources = (): PackageSources => latest;
