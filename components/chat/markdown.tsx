'use client';

import dynamic from 'next/dynamic';
import { memo, Suspense } from 'react';
import type { MarkdownProps } from './markdown-streamdown';
import { usePacedText } from './use-paced-text';

/** The text as written: shown while the renderer loads, and for good if it cannot be loaded. */
function PlainMarkdown({ text }: MarkdownProps) {
  return <div className="prose-runpad whitespace-pre-wrap">{text}</div>;
}

/**
 * Streamdown, its parsers and highlighter: the page's largest script. Not part of the page's own
 * scripts: a new chat has nothing to render until the first answer, and a first visit's Python
 * start shares the machine with the page's scripts. A page rendered with markdown on the server
 * (a stored conversation, a shared one) has it preloaded beside its own scripts by next/dynamic.
 */
const MarkdownStreamdown = dynamic(() =>
  import('./markdown-streamdown')
    .catch(() => import('./markdown-streamdown')) // one retry: a chunk request can fail on a flaky network
    .catch((error: unknown) => {
      console.error('The markdown renderer could not be loaded; answers are shown as plain text.', error);
      return { default: PlainMarkdown };
    }),
);

/** Starts loading the renderer before the first answer needs it (the chat calls it once Python has started). */
export function preloadMarkdown(): void {
  void import('./markdown-streamdown').catch(() => undefined); // where it renders, a failed load is retried and logged
}

/** Markdown, rendered by Streamdown once loaded; until then the text as written. Streamed text is drawn at a pace (use-paced-text.ts). */
export const Markdown = memo(function Markdown(props: MarkdownProps) {
  const paced = { ...props, text: usePacedText(props.text, props.streaming ?? false) };
  return (
    <Suspense fallback={<PlainMarkdown {...paced} />}>
      <MarkdownStreamdown {...paced} />
    </Suspense>
  );
});
