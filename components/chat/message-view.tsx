'use client';

import { readRunPart } from '@/lib/targets/run-part';
import type { UIMessage } from 'ai';
import { memo } from 'react';
import { attachmentsOf } from '@/lib/messages/attachment';
import { answerMetadataOf } from '@/lib/messages/answer-metadata';
import { formatBytes } from '@/lib/format';
import { CodeCell } from './code-cell';
import { Markdown } from './markdown';
import type { RunStore } from './run-store';
import type { AnswerTrace } from '@/lib/trace';
import { TraceMarksProvider } from './trace-marks';
import { TraceSummary } from './trace-summary';

type MessageViewProps = {
  message: UIMessage;
  runs: RunStore;
  streaming: boolean;
  /** The complete answer's traced figures (lib/trace), computed from the stored conversation. */
  trace?: AnswerTrace;
  /** Sends a follow-up asking the model to verify the untraced figures (absent where nothing can be sent). */
  onCheck?: (text: string) => void;
};

/**
 * One message: the user's text, or the assistant's text and code cells in order. Memoised: the
 * AI SDK replaces only the message that changed, so the others skip rendering while one streams.
 */
export const MessageView = memo(function MessageView({ message, runs, streaming, trace, onCheck }: MessageViewProps) {
  if (message.role === 'user') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const files = attachmentsOf(message.metadata);
    return (
      <div data-role="user" className="flex flex-col items-end gap-1">
        {files.length > 0 && (
          <ul aria-label="Files sent with this message" className="flex flex-wrap justify-end gap-1">
            {files.map((file) => (
              <li key={file.sha256 + file.name} className="rounded-full border border-zinc-300 px-2 py-0.5 font-mono text-xs dark:border-zinc-700">
                {file.name} · {formatBytes(file.size)}
              </li>
            ))}
          </ul>
        )}
        <div className="max-w-[85%] whitespace-pre-wrap rounded-2xl bg-zinc-100 px-4 py-2 text-[15px] dark:bg-zinc-800">{text}</div>
      </div>
    );
  }
  const { model } = answerMetadataOf(message.metadata);
  const traced = trace !== undefined && !streaming;
  return (
    <div data-role="assistant" data-model={model?.id} data-traced={traced ? '' : undefined} className="text-[15px] leading-7">
      <TraceMarksProvider trace={traced ? trace : undefined}>
        {message.parts.map((part, i) => {
          if (part.type === 'text') {
            return <Markdown key={i} text={part.text} streaming={streaming && part.state === 'streaming'} traced={traced} />;
          }
          const run = readRunPart(part);
          if (run) return <CodeCell key={run.part.toolCallId} part={run.part} target={run.target} runs={runs} />;
          return null;
        })}
      </TraceMarksProvider>
      {traced && <TraceSummary trace={trace} onCheck={onCheck} />}
      {model && (
        <p data-testid="answer-model" className="text-xs leading-5 text-zinc-500 dark:text-zinc-400">
          Answered by {model.label}
        </p>
      )}
    </div>
  );
});
