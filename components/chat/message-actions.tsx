'use client';

import type { UIMessage } from 'ai';
import { useState } from 'react';

function plainText(message: UIMessage): string {
  return message.parts
    .map((part) => (part.type === 'text' ? part.text : part.type === 'tool-python' ? '```python\n' + String((part.input as { code?: string } | undefined)?.code ?? '') + '\n```' : ''))
    .filter(Boolean)
    .join('\n\n');
}

/** Copy any message; regenerate the last answer. */
export function MessageActions({ message, canRegenerate, onRegenerate }: { message: UIMessage; canRegenerate: boolean; onRegenerate: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(plainText(message));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className={`mt-1 flex gap-3 text-xs text-zinc-500 ${message.role === 'user' ? 'justify-end' : ''}`}>
      <button type="button" onClick={() => void copy()} className="underline hover:text-zinc-800 dark:hover:text-zinc-200">
        {copied ? 'Copied' : 'Copy'}
      </button>
      {canRegenerate && (
        <button type="button" onClick={onRegenerate} className="underline hover:text-zinc-800 dark:hover:text-zinc-200">
          Regenerate
        </button>
      )}
    </div>
  );
}
