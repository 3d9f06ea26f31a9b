'use client';

/**
 * Keeps a tab's messages equal to what is stored: when the tab gets focus (another tab may have
 * added messages), and after a failed turn (its fragment is discarded; a stale tab's refused
 * message is replaced by the latest messages). Only while the tab is idle: it never replaces an
 * answer that is streaming or a cell that is running.
 */
import { safeValidateUIMessages, type ChatStatus, type UIMessage } from 'ai';
import { z } from 'zod';
import { useCallback, useEffect, useRef } from 'react';

type Options = {
  conversationId: string;
  status: ChatStatus;
  saved: boolean;
  busy: boolean;
  messages: UIMessage[];
  setMessages: (messages: UIMessage[]) => void;
};

/** `afterFailure`: called from the chat's onError, while its status may still read 'streaming'. */
export function useConversationSync({ conversationId, status, saved, busy, messages, setMessages }: Options): (options?: { afterFailure?: boolean }) => Promise<void> {
  const current = useRef({ status, busy, messages });
  useEffect(() => {
    current.current = { status, busy, messages };
  });

  const refresh = useCallback(async ({ afterFailure = false }: { afterFailure?: boolean } = {}) => {
    const response = await fetch(`/api/conversations/${conversationId}`, { cache: 'no-store' }).catch((error: unknown) => {
      console.warn('The stored conversation could not be re-read (no answer); the page keeps what it shows and tries again at the next focus.', error);
      return null;
    });
    if (!response) return;
    if (!response.ok) {
      // Safe to go on: the page shows what it had, and the next focus or failure asks again.
      console.warn(`The stored conversation could not be re-read (HTTP ${response.status}); the page keeps what it shows.`);
      return;
    }
    // A body that is not JSON fails the schema below, which is logged with the reason.
    const body = z.object({ messages: z.array(z.unknown()) }).safeParse(await response.json().catch(() => null));
    const validated = body.success ? await safeValidateUIMessages({ messages: body.data.messages }) : null;
    if (!validated?.success) {
      console.warn('The stored conversation could not be read back; the page keeps what it shows.', validated?.error ?? body.error);
      return;
    }
    const stored = { messages: validated.data };
    const { status: now, busy: running, messages: shown } = current.current;
    if (!afterFailure && (running || now === 'submitted' || now === 'streaming')) return;
    const same = stored.messages.length === shown.length && stored.messages.every((m, i) => m.id === shown[i]?.id && JSON.stringify(m.parts) === JSON.stringify(shown[i]?.parts));
    if (!same) setMessages(stored.messages);
  }, [conversationId, setMessages]);

  useEffect(() => {
    if (!saved) return;
    const onFocus = () => void refresh();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [saved, refresh]);

  return refresh;
}
