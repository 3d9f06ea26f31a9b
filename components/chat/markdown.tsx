'use client';

import { memo } from 'react';
import { defaultRehypePlugins, Streamdown, type StreamdownProps } from 'streamdown';

type Pluggable = NonNullable<StreamdownProps['rehypePlugins']>[number];
type Plugin = Extract<Pluggable, (...args: never[]) => unknown>;

/**
 * Markdown from the model or from Python is untrusted: raw HTML is dropped, and images may only
 * come from the app itself or data: URLs (the page CSP enforces the same).
 */
const harden = defaultRehypePlugins.harden as [Plugin, Record<string, unknown>];
const rehypePlugins: Pluggable[] = [
  defaultRehypePlugins.sanitize,
  [harden[0], { ...harden[1], allowedImagePrefixes: ['/', 'data:image/'], allowedProtocols: ['http', 'https', 'mailto'], allowDataImages: true }],
];

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
