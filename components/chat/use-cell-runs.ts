'use client';

import type { UIMessage } from 'ai';
import { useCallback } from 'react';
import type { Kernel } from '@/lib/runtime/kernel';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { storeOutputFiles } from '@/components/files/store-output-files';
import type { KernelContextValue, UserRun } from './kernel-context';

type SetMessages = (update: (messages: UIMessage[]) => UIMessage[]) => void;

function withCellRun(messages: UIMessage[], toolCallId: string, code: string, result: RunResult): UIMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    if (!message.parts.some((part) => part.type === 'tool-python' && part.toolCallId === toolCallId)) return message;
    const parts = message.parts.map((part) =>
      part.type === 'tool-python' && part.toolCallId === toolCallId ? { ...part, input: { code }, output: result } : part,
    );
    return { ...message, parts } as UIMessage;
  });
}

/**
 * "Run again" and "Edit": the cell runs in this interpreter, its message takes the code and the
 * result (marked as the user's run), and the server stores it so the model sees it next turn.
 */
export function useCellRuns(options: {
  kernel: Kernel | null;
  conversationId: string;
  timeoutMs: () => number;
  setMessages: SetMessages;
  /** What the run depends on, after any restore it may do by itself (use-restore.ts). */
  beforeRun: (toolCallId: string) => Promise<{ dependsOn: string[]; restored?: RunResult['restored'] }>;
}): KernelContextValue['runCell'] {
  const { kernel, conversationId, timeoutMs, setMessages, beforeRun } = options;
  return useCallback(
    async (toolCallId: string, code: string, how: UserRun, onOutputs: (outputs: readonly Output[]) => void) => {
      if (!kernel) throw new Error('The interpreter is not available.');
      const { dependsOn, restored } = await beforeRun(toolCallId);
      const ran = await kernel.run(code, { timeoutMs: timeoutMs(), onOutputs, runId: toolCallId, dependsOn });
      let result: RunResult = { ...(await storeOutputFiles(ran, kernel, conversationId)), userRun: how, ...(restored ? { restored, freshInterpreter: undefined } : {}) };
      const response = await fetch(`/api/conversations/${conversationId}/cells/${encodeURIComponent(toolCallId)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, result }),
      }).catch(() => null);
      if (!response?.ok) {
        const unsaved = 'This run could not be saved, so the model will not see it.';
        result = { ...result, notice: result.notice ? `${result.notice} ${unsaved}` : unsaved };
      }
      setMessages((messages) => withCellRun(messages, toolCallId, code, result));
      return result;
    },
    [kernel, conversationId, timeoutMs, setMessages, beforeRun],
  );
}
