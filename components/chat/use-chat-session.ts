'use client';

/**
 * The conversation with the model: the chat transport (the server keeps the history; the browser
 * sends only what is new), whether the server has stored the conversation yet, and each tool
 * call the model makes run in this page (run-tool-call.ts), its result sent back.
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PipelineOptions } from '@/lib/targets/pipeline.client';
import { pickedModel } from './picked-models';
import type { RunStore } from './run-store';
import type { RunHold } from './run-hold';
import { currentSettings } from './use-settings';
import { lastPackageSources } from './use-package-source';
import { runChatToolCall } from './run-tool-call';

type ChatSessionOptions = {
  conversationId: string;
  initialMessages: UIMessage[];
  projectId?: string;
  runs: RunStore;
  runHold: RunHold<UIMessage[]>;
  /** Set by Stop, cleared by the next message: no automatic next request after a stopped turn. */
  stoppedRef: { current: boolean };
  messagesRef: { current: UIMessage[] };
  pipelineRef: { current: PipelineOptions };
  signal: () => AbortSignal;
  /** Re-reads what is stored (after a failed turn). */
  syncRef: { current: ((options?: { afterFailure?: boolean }) => Promise<void>) | null };
};

export function useChatSession({ conversationId, initialMessages, projectId, runs, runHold, stoppedRef, messagesRef, pipelineRef, signal, syncRef }: ChatSessionOptions) {
  // Whether the server has this conversation: a new chat is stored by its first accepted message.
  // Until then nothing asks for it (no resume, no re-read): it would only be "not found".
  const [stored, setStored] = useState(initialMessages.length > 0);
  const storedRef = useRef(stored);
  useEffect(() => {
    storedRef.current = stored;
  }, [stored]);

  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: '/api/chat',
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          // An accepted message has been stored, with its conversation.
          if (response.ok) setStored(true);
          return response;
        },
        // The server keeps the history; the browser sends only what is new.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
          const { includeImages, stepBudget, modelSees } = currentSettings();
          const message = messages.at(-1);
          // A new message says which messages this tab has, so a stale tab is refused, not interleaved.
          const knownMessageIds = trigger === 'submit-message' && !messageId && message?.role === 'user' ? messages.slice(0, -1).map((m) => m.id) : undefined;
          return {
            body: { id, trigger, messageId, message, knownMessageIds, ...(projectId ? { projectId } : {}), packageSources: lastPackageSources(), modelId: pickedModel(id), settings: { includeImages, stepBudget, ...(modelSees === 'schema' ? { modelSees } : {}) } },
          };
        },
      }),
    [projectId],
  );

  const chat = useChat({
    id: conversationId,
    messages: initialMessages,
    transport,
    // A reloaded page attaches to an answer still being written (GET /api/chat/<id>/stream).
    resume: initialMessages.length > 0,
    sendAutomaticallyWhen: (options) => !stoppedRef.current && lastAssistantMessageIsCompleteWithToolCalls(options),
    // A failed turn shows what is stored: its fragment goes, a stale tab gets the latest messages.
    onError: () => {
      if (storedRef.current) void syncRef.current?.({ afterFailure: true });
    },
    async onToolCall({ toolCall }) {
      if (toolCall.dynamic) return;
      const ran = await runChatToolCall(toolCall, {
        conversationId,
        runs,
        runHold,
        messages: () => messagesRef.current,
        signal: signal(),
        pipeline: pipelineRef.current,
        // The person stopped the turn: no next request carries this run, so it is stored now.
        storeNow: () => stoppedRef.current && storedRef.current,
      });
      if (!ran) return;
      // Rendering a large result and serialising it for the model are separate tasks, so
      // neither adds to the other's time on the main thread.
      await new Promise((resolve) => setTimeout(resolve, 0));
      void chat.addToolOutput({ tool: ran.target.toolName, toolCallId: toolCall.toolCallId, output: ran.result });
    },
  });
  return { chat, stored };
}
