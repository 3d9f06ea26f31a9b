'use client';

import { createContext, useContext } from 'react';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import type { Target } from '@/lib/targets/registry';

export type UserRun = 'rerun' | 'edited';

export type KernelContextValue = {
  /** Whether the page's engines are made (cells can run again once they are). */
  ready: boolean;
  /**
   * Runs a cell's code (as it was, or as the user edited it) in this interpreter without asking
   * the model; the cell's message then holds that code and result, and the model sees both.
   */
  runCell: (target: Target, toolCallId: string, code: string, how: UserRun, onOutputs: (outputs: readonly Output[]) => void) => Promise<RunResult>;
};

/** The open conversation's runs, for cells that can run again (absent on a share page). */
export const KernelContext = createContext<KernelContextValue | null>(null);

export function useKernelContext() {
  return useContext(KernelContext);
}
