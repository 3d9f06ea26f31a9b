'use client';

import { createContext, useContext } from 'react';
import type { Kernel } from '@/lib/runtime/kernel';

/** The open conversation's interpreter, for cells that can run again (absent on a share page). */
export const KernelContext = createContext<{ kernel: Kernel | null; timeoutMs: () => number } | null>(null);

export function useKernelContext() {
  return useContext(KernelContext);
}
