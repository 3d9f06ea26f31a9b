'use client';

import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { TARGET_IDS, type TargetId } from '@/lib/targets/registry';
import type { RunnerSource } from '@/lib/targets/runner';
import type { PackageSourceAnswer } from '@/lib/targets/target';

/** Per target whose runner has a package source (Python's mirror, R's repository), what the page found of it. */
export type PackageSources = Partial<Record<TargetId, PackageSourceAnswer>>;

/** The targets whose runner reports a package source, and their answers now, as one stable string. */
function sourcesKey(runners: RunnerSource): string {
  const sources: PackageSources = {};
  for (const id of TARGET_IDS) {
    const answer = runners.get(id).packageSource?.();
    if (answer) sources[id] = answer;
  }
  return JSON.stringify(sources);
}

/**
 * What each target's engine found of its own package source: Python's once the interpreter is up,
 * R's once R starts (its first run, never at page load); 'unknown' until then. `runners` is null
 * while the page's interpreter does not exist yet.
 */
export function usePackageSources(runners: RunnerSource | null): PackageSources {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!runners) return () => undefined;
      const unsubscribes = TARGET_IDS.map((id) => runners.get(id))
        .filter((runner) => runner.packageSource)
        .map((runner) => runner.subscribe(onChange));
      return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
    },
    [runners],
  );
  const read = useCallback(() => (runners ? sourcesKey(runners) : '{}'), [runners]);
  const key = useSyncExternalStore(subscribe, read, () => '{}');
  return useMemo(() => JSON.parse(key) as PackageSources, [key]);
}

/**
 * The page's latest answers, for the chat transport (made once per conversation, reading them at
 * each request). One page has one runner per target, so one value each per page is the truth.
 */
let latest: PackageSources = {};
export const rememberPackageSources = (sources: PackageSources): void => {
  latest = sources;
};
export const lastPackageSources = (): PackageSources => latest;
