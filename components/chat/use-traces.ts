'use client';

import type { UIMessage } from 'ai';
import { useState } from 'react';
import { traceConversation, type AnswerTrace } from '@/lib/trace';

type Traced = { messages: readonly UIMessage[] | null; traces: ReadonlyMap<string, AnswerTrace> };

/**
 * The traces of a conversation's answers (lib/trace), computed when no answer is being written
 * (`settled`); while one streams, the last traces stay. A trace equal to the previous one keeps
 * its identity, so only answers whose trace changed render again.
 */
export function useTraces(messages: readonly UIMessage[], settled: boolean): ReadonlyMap<string, AnswerTrace> {
  const [traced, setTraced] = useState<Traced>({ messages: null, traces: new Map() });
  if (!settled || traced.messages === messages) return traced.traces;
  // Adjusting state while rendering (once per settled message list), as React recommends over an effect.
  const next = new Map<string, AnswerTrace>();
  for (const [id, trace] of traceConversation(messages)) {
    const before = traced.traces.get(id);
    next.set(id, before && JSON.stringify(before) === JSON.stringify(trace) ? before : trace);
  }
  setTraced({ messages, traces: next });
  return next;
}
