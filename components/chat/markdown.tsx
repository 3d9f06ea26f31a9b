'use client';

import { memo } from 'react';
import { defaultRehypePlugins, Streamdown } from 'streamdown';

/**
 * Markdown from the model or from Python is untrusted: raw HTML is dropped (skipHtml), and the
 * page's Content-Security-Policy only lets images load from the app itself, data: and blob:, so
 * a markdown image cannot carry data to another host.
 */
const rehypePlugins = [defaultRehypePlugins.sanitize, defaultRehypePlugins.harden];

export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return (
    <Streamdown
      mode={streaming ? 'streaming' : 'static'}
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
