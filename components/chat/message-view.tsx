'use client';

import type { UIMessage } from 'ai';
import { CodeCell, type PythonToolPart } from './code-cell';
import { Markdown } from './markdown';
import type { RunStore } from './run-store';

type MessageViewProps = {
  message: UIMessage;
  runs: RunStore;
  streaming: boolean;
};

/** One message: the user's text, or the assistant's text and code cells in order. */
export function MessageView({ message, runs, streaming }: MessageViewProps) {
  if (message.role === 'user') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    return (
      <div data-role="user" className="flex justify-end">
        <div className="max-w-[85%] whitespace-pre-wrap rounded-2xl bg-zinc-100 px-4 py-2 text-[15px] dark:bg-zinc-800">{text}</div>
      </div>
    );
  }
  return (
    <div data-role="assistant" className="text-[15px] leading-7">
      {message.parts.map((part, i) => {
        if (part.type === 'text') {
          return <Markdown key={i} text={part.text} streaming={streaming && part.state === 'streaming'} />;
        }
        if (part.type === 'tool-python') {
          return <CodeCell key={part.toolCallId} part={part as PythonToolPart} runs={runs} />;
        }
        return null;
      })}
    </div>
  );
}
