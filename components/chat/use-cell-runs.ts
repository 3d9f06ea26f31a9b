'use client';

import type { UIMessage } from 'ai';
import { useCallback } from 'react';
import { failureWords } from '@/lib/http/error-body.client';
import type { Target } from '@/lib/targets/registry';
import { readRunPart, withUserRun } from '@/lib/targets/run-part';
import type { CellRun } from '@/lib/targets/pipeline.client';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import type { KernelContextValue, UserRun } from './kernel-context';

type SetMessages = (update: (messages: UIMessage[]) => UIMessage[]) => void;

function withCellRun(messages: UIMessage[], toolCallId: string, code: string, result: RunResult): UIMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const isCell = (part: UIMessage['parts'][number]) => readRunPart(part)?.part.toolCallId === toolCallId;
    if (!message.parts.some(isCell)) return message;
    const parts = message.parts.map((part) => (isCell(part) ? withUserRun(part, code, result) : part));
    return { ...message, parts } as UIMessage;
  });
}

/** Under the browsers' 64 KB limit for requests that outlive their page, counting characters as up to 2 bytes. */
const KEEPALIVE_BYTES = 30_000;

/**
 * Stores a cell's run (app/api/conversations/[id]/cells): the user's run of a finished cell
 * (`result.userRun` set), or the page's run of a call the model's turn waited for when the person
 * stopped the turn, so nothing else would carry it to the server. The result as it is to be shown:
 * with a notice when it could not be saved.
 */
export async function saveCellRun(conversationId: string, toolCallId: string, code: string, result: RunResult): Promise<RunResult> {
  const body = JSON.stringify({ code, result });
  const response = await fetch(`/api/conversations/${conversationId}/cells/${encodeURIComponent(toolCallId)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
    // Outlives a reload right after (the browser keeps at most 64 KB of such bodies in flight).
    keepalive: body.length < KEEPALIVE_BYTES,
  }).catch(() => null); // no answer: worded below like a refusal
  if (response?.ok) return result;
  const why = await failureWords(response, 'Runpad could not be reached.');
  const unsaved = `This run could not be saved, so the model will not see it: ${why}`;
  return { ...result, notice: result.notice ? `${result.notice} ${unsaved}` : unsaved };
}

/**
 * "Run again" and "Edit": the cell runs in this page (the run pipeline, its target's runner), its message takes the
 * code and the result (marked as the user's run), and the server stores it so the model sees it.
 */
export function useCellRuns(options: {
  conversationId: string;
  setMessages: SetMessages;
  /** The run pipeline (lib/targets/pipeline.client.ts), as the chat's tool calls use it. */
  runCode: (target: Target, id: string, code: string, run: Pick<CellRun, 'onOutputs'>) => Promise<RunResult>;
}): KernelContextValue['runCell'] {
  const { conversationId, setMessages, runCode } = options;
  return useCallback(
    async (target: Target, toolCallId: string, code: string, how: UserRun, onOutputs: (outputs: readonly Output[]) => void) => {
      const ran: RunResult = { ...(await runCode(target, toolCallId, code, { onOutputs })), userRun: how };
      const result = await saveCellRun(conversationId, toolCallId, code, ran);
      setMessages((messages) => withCellRun(messages, toolCallId, code, result));
      return result;
    },
    [conversationId, setMessages, runCode],
  );
}
