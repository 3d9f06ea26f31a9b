'use client';

import { useSyncExternalStore } from 'react';
import type { SourceLocation } from '@/lib/trace';

/**
 * "Show me where this figure came from": one request at a time, for one output of one run. The
 * output that matches shows it (a table turns to the row's page, a long text expands) and marks
 * the value; every other output drops its mark.
 */
export type RevealRequest = { toolCallId: string; outputIndex: number; location: SourceLocation; seq: number };

let current: RevealRequest | null = null;
let seq = 0;
const listeners = new Set<() => void>();

export function requestReveal(request: Omit<RevealRequest, 'seq'>): void {
  seq += 1;
  current = { ...request, seq };
  for (const listener of listeners) listener();
  // The cell itself first, so the page moves even before the output has turned to the value.
  const cell = Array.from(document.querySelectorAll<HTMLElement>('[data-tool-call-id]')).find((element) => element.dataset.toolCallId === request.toolCallId);
  cell?.scrollIntoView({ block: 'nearest' });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current request when it is for this run, else null. */
export function useRevealFor(toolCallId: string | undefined): RevealRequest | null {
  return useSyncExternalStore(
    subscribe,
    () => (toolCallId !== undefined && current?.toolCallId === toolCallId ? current : null),
    () => null,
  );
}
