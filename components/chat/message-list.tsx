'use client';

import { ModelErrorNotice } from './model-error';
import type { ChatStatus, UIMessage } from 'ai';
import { memo, useState } from 'react';
import { answerMetadataOf } from '@/lib/messages/answer-metadata';
import { isPendingRunPart } from '@/lib/targets/run-part';
import { EditMessageForm } from './edit-message-form';
import { EmptyState } from './empty-state';
import { MessageView } from './message-view';
import { MessageActions } from './message-actions';
import type { RunStore } from './run-store';
import { useTraces } from './use-traces';

type MessageListProps = {
  messages: UIMessage[];
  runs: RunStore;
  status: ChatStatus;
  error: Error | undefined;
  onRetry: () => void;
  onRegenerate: () => void;
  /** Asks the model to go on with an answer a crash cut off. */
  onContinue: () => void;
  /** Re-sends an edited user message; the answers after it are replaced. */
  onEditMessage: (messageId: string, text: string) => void;
  isDemo: boolean;
  /** The package source does not answer: the empty state suggests nothing that needs it. */
  packagesUnavailable: boolean;
  onExample: (text: string) => void;
  /** Sends a follow-up asking the model to verify an answer's untraced figures. */
  onCheck: (text: string) => void;
  /** The conversation's id, for each answer's "What the model saw". */
  conversationId?: string;
};

/**
 * The conversation's messages. Memoised, with stable callbacks from `Chat`: the page re-renders
 * `Chat` for every change of the interpreter's state (busy, then ready, on every run), and none of
 * those needs the messages drawn again. A run's round trip waited for them.
 */
export const MessageList = memo(function MessageList({ messages, runs, status, error, onRetry, onRegenerate, onContinue, onEditMessage, isDemo, packagesUnavailable, onExample, onCheck, conversationId }: MessageListProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  const idleNow = status === 'ready' || status === 'error';
  // An answer is complete when nothing streams and none of its code is still to run.
  const traces = useTraces(messages, idleNow && !hasPendingRun(messages.at(-1)));
  if (messages.length === 0) return <EmptyState isDemo={isDemo} packagesUnavailable={packagesUnavailable} onExample={onExample} />;
  const last = messages.at(-1);
  const idle = status === 'ready' || status === 'error';
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-6" aria-live="polite" aria-busy={status === 'streaming'}>
      {messages.map((message) => {
        const metadata = answerMetadataOf(message.metadata);
        const budget = metadata.budgetSpent;
        const cutOff = metadata.cutOff === true && message === last && idle;
        return (
          <div key={message.id}>
            {editingId === message.id ? (
              <EditMessageForm
                initialText={textOf(message)}
                onCancel={() => setEditingId(null)}
                onSend={(text) => {
                  setEditingId(null);
                  onEditMessage(message.id, text);
                }}
              />
            ) : (
              <>
                <MessageView
                  message={message}
                  runs={runs}
                  streaming={status === 'streaming' && message === last}
                  trace={traces.get(message.id)}
                  onCheck={message === last && idle ? onCheck : undefined}
                />
                <MessageActions
                  message={message}
                  canRegenerate={message === last && message.role === 'assistant' && idle}
                  onRegenerate={onRegenerate}
                  onEdit={message.role === 'user' && idle ? setEditingId : undefined}
                  conversationId={conversationId}
                />
              </>
            )}
            {cutOff && (
              <div role="note" data-testid="cut-off-answer" className="mt-2 flex flex-wrap items-center gap-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
                <span>This answer was cut off: the server stopped while it was being written.</span>
                <button type="button" className="font-medium underline" onClick={onContinue}>
                  Continue
                </button>
                <button type="button" className="underline" onClick={onRegenerate}>
                  Regenerate
                </button>
              </div>
            )}
            {budget !== undefined && (
              <p role="note" className="mt-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
                The model used its budget of {budget} code steps for this message and was asked to stop. Send a message to let it continue.
              </p>
            )}
          </div>
        );
      })}
      {status === 'submitted' && <p className="text-sm text-zinc-500 dark:text-zinc-400">Thinking…</p>}
      {error && <ModelErrorNotice key={error.message} error={error} onRetry={onRetry} />}
    </div>
  );
});

function hasPendingRun(message: UIMessage | undefined): boolean {
  return (message?.parts ?? []).some((part) => isPendingRunPart(part));
}

function textOf(message: UIMessage): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

