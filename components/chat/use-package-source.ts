'use client';

import { useEffect, useState } from 'react';
import type { Kernel, PackageSourceState } from '@/lib/runtime/kernel';

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
 * The page's latest answer, for the chat transport (made once per conversation, reading it at each
 * request). One page has one interpreter, so one value per page is the truth.
 */
let latest: PackageSourceState = 'unknown';
export const rememberPackageSource = (state: PackageSourceState): void => {
  latest = state;
};
export const lastPackageSource = (): PackageSourceState => latest;
