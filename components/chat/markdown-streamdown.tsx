'use client';

import { memo } from 'react';
import { defaultRehypePlugins, Streamdown } from 'streamdown';
import { rehypeFigures } from '@/lib/trace/rehype-figures.client';
import { traceComponents } from './trace-marks';

/**
 * Markdown from the model or from Python is untrusted: raw HTML is dropped (skipHtml), and the
 * page's Content-Security-Policy only lets images load from the app itself, data: and blob:, so
 * a markdown image cannot carry data to another host.
 */
const rehypePlugins = [defaultRehypePlugins.sanitize, defaultRehypePlugins.harden];
/** A finished answer's figures are wrapped after sanitizing, so the marks are ours, not the model's. */
const tracedRehypePlugins = [...rehypePlugins, rehypeFigures];

/**
 * Always Streamdown's block mode, also once the answer is complete: its static mode renders the
 * whole text as one tree, so switching to it at the end of a stream remounted every block at once
 * (a 200–500 ms main-thread task for a long answer). In block mode, finished blocks stay memoized.
 *
 * `traced`: the figures are marked with their traces (TraceMarksProvider), once the answer is complete.
 */
export type MarkdownProps = { text: string; streaming?: boolean; traced?: boolean };

/**
 * While the answer arrives, an unfinished link shows as its text only (remend's `text-only`): its
 * `protocol` form wrote `](streamdown:incomplete-link)` after a `[` that never closes, such as an
 * interval's `[0, 1)`. Once complete, the text is what the model wrote: nothing is completed.
 */
const remendWhileStreaming = { linkMode: 'text-only' } as const;

const MarkdownStreamdown = memo(function MarkdownStreamdown({ text, streaming = false, traced = false }: MarkdownProps) {
  return (
    <Streamdown
      mode="streaming"
      isAnimating={streaming}
      parseIncompleteMarkdown={streaming}
      remend={remendWhileStreaming}
      skipHtml
      rehypePlugins={traced ? tracedRehypePlugins : rehypePlugins}
      components={traced ? traceComponents : undefined}
      shikiTheme={['github-light', 'github-dark']}
      className="prose-runpad"
    >
      {text}
    </Streamdown>
  );
});

export default MarkdownStreamdown;
