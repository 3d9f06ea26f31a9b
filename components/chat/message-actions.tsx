'use client';

import type { UIMessage } from 'ai';
import { memo, useState } from 'react';
import { messagePlainText } from '@/lib/chat/copy-text.client';
import { ModelSawDialog } from './model-saw-dialog';

type MessageActionsProps = {
  message: UIMessage;
  canRegenerate: boolean;
  onRegenerate: () => void;
  /** Present when the message is the user's and may be edited now (no answer in progress). */
  onEdit?: (messageId: string) => void;
  /** The conversation, for an answer's "What the model saw" (absent: not offered). */
  conversationId?: string;
};

/**
 * Copy any message; edit and re-send the user's; regenerate the last answer. Memoised, like the
 * message itself: the list re-renders on every streamed chunk and run, its finished messages' actions need not.
 */
export const MessageActions = memo(function MessageActions({ message, canRegenerate, onRegenerate, onEdit, conversationId }: MessageActionsProps) {
  const [copied, setCopied] = useState(false);
  const [sawOpen, setSawOpen] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(messagePlainText(message));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className={`mt-1 flex gap-3 text-xs text-zinc-500 dark:text-zinc-400 ${message.role === 'user' ? 'justify-end' : ''}`}>
      <button type="button" onClick={() => void copy()} className="underline hover:text-zinc-800 dark:hover:text-zinc-200">
        {copied ? 'Copied' : 'Copy'}
      </button>
      {onEdit && (
        <button type="button" onClick={() => onEdit(message.id)} className="underline hover:text-zinc-800 dark:hover:text-zinc-200">
          Edit
        </button>
      )}
      {conversationId && message.role === 'assistant' && (
        <>
          <button type="button" onClick={() => setSawOpen(true)} className="underline hover:text-zinc-800 dark:hover:text-zinc-200">
            What the model saw
          </button>
          <ModelSawDialog open={sawOpen} onClose={() => setSawOpen(false)} conversationId={conversationId} answerId={message.id} />
        </>
      )}
      {canRegenerate && (
        <button type="button" onClick={onRegenerate} className="underline hover:text-zinc-800 dark:hover:text-zinc-200">
          Regenerate
        </button>
      )}
    </div>
  );
});
