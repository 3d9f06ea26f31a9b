'use client';

/**
 * What the person does to the conversation: send (with the attached files), retry, regenerate,
 * continue, edit a question, send a follow-up, and Stop (the answer upstream, every run of the
 * turn, Escape too). Stable callbacks (the chat's methods are), so that a re-render of the chat
 * for an engine's state does not draw the memoised message list, header and sidebar again.
 */
import type { UseChatHelpers } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { useCallback, useEffect, useState } from 'react';
import type { Attachment } from '@/lib/messages/attachment';
import { stopUpstream } from './stop-upstream';

type Chat = Pick<UseChatHelpers<UIMessage>, 'sendMessage' | 'regenerate' | 'stop'>;

type ActionsOptions = {
  conversationId: string;
  chat: Chat;
  takeAttachments: () => Attachment[];
  stoppedRef: { current: boolean };
  messagesRef: { current: UIMessage[] };
  composerRef: { current: HTMLTextAreaElement | null };
  /** Stop's part in the runs (use-chat-runs.ts). */
  stopRuns: () => void;
  busy: boolean;
};

export function useChatActions({ conversationId, chat: { sendMessage, regenerate, stop }, takeAttachments, stoppedRef, messagesRef, composerRef, stopRuns, busy }: ActionsOptions) {
  const [stopFailed, setStopFailed] = useState<string | null>(null);
  const send = useCallback(
    (text: string) => {
      stoppedRef.current = false;
      if (window.location.pathname !== `/c/${conversationId}`) {
        window.history.replaceState(null, '', `/c/${conversationId}`);
      }
      const attached = takeAttachments();
      void sendMessage({ text, metadata: attached.length > 0 ? { files: attached } : undefined });
    },
    [sendMessage, conversationId, takeAttachments, stoppedRef],
  );
  const retry = useCallback(() => void regenerate(), [regenerate]);
  const regenerateAnswer = useCallback(() => {
    stoppedRef.current = false;
    void regenerate();
  }, [regenerate, stoppedRef]);
  const continueAnswer = useCallback(() => {
    stoppedRef.current = false;
    void sendMessage();
  }, [sendMessage, stoppedRef]);
  const editMessage = useCallback(
    (messageId: string, text: string) => {
      stoppedRef.current = false;
      const original = messagesRef.current.find((m) => m.id === messageId);
      void sendMessage({ text, messageId, metadata: original?.metadata });
      composerRef.current?.focus();
    },
    [sendMessage, stoppedRef, messagesRef, composerRef],
  );
  const sendFollowUp = useCallback(
    (text: string) => {
      stoppedRef.current = false;
      void sendMessage({ text });
    },
    [sendMessage, stoppedRef],
  );

  const stopAll = useCallback(() => {
    stoppedRef.current = true;
    void stop();
    // Closing the connection no longer stops the answer (a reload must not); Stop does, upstream.
    setStopFailed(null);
    void stopUpstream(conversationId).then(setStopFailed);
    stopRuns();
    composerRef.current?.focus();
  }, [stop, conversationId, stoppedRef, stopRuns, composerRef]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && busy) stopAll();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, stopAll]);

  const dismissStopFailed = useCallback(() => setStopFailed(null), []);
  return { send, retry, regenerateAnswer, continueAnswer, editMessage, sendFollowUp, stopAll, stopFailed, dismissStopFailed };
}
