'use client';

import { memo } from 'react';
import { defaultRehypePlugins, Streamdown } from 'streamdown';

/**
 * Markdown from the model or from Python is untrusted: raw HTML is dropped (skipHtml), and the
 * page's Content-Security-Policy only lets images load from the app itself, data: and blob:, so
 * a markdown image cannot carry data to another host.
 */
const rehypePlugins = [defaultRehypePlugins.sanitize, defaultRehypePlugins.harden];

/**
 * Always Streamdown's block mode, also once the answer is complete: its static mode renders the
 * whole text as one tree, so switching to it at the end of a stream remounted every block at once
 * (a 200–500 ms main-thread task for a long answer). In block mode, finished blocks stay memoized.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return (
    <Streamdown
      mode="streaming"
      isAnimating={streaming}
      skipHtml
      rehypePlugins={rehypePlugins}
      shikiTheme={['github-light', 'github-dark']}
      className="prose-runpad"
    >
      {text}
    </Streamdown>
  );
});
