'use client';

import { useMemo } from 'react';

/**
 * An SVG output (a Graphviz diagram): shown through an <img> from a data: URL, never inlined into
 * the page's DOM, so nothing in it can run script, navigate or load a resource.
 */
export function SvgOutput({ svg, index }: { svg: string; index: number }) {
  const url = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, [svg]);
  return (
    <figure className="my-2" data-output="svg">
      {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL of sanitized SVG */}
      <img src={url} alt={`Diagram ${index}`} className="max-h-[40rem] max-w-full rounded border border-zinc-200 bg-white p-2 dark:border-zinc-700" />
      <a href={url} download={`diagram-${index}.svg`} className="mt-1 inline-block text-xs text-zinc-500 underline hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200">
        Download SVG
      </a>
    </figure>
  );
}
