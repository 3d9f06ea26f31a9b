'use client';

import { useState } from 'react';
import { BLOB_REF_PATTERN } from '@/lib/runtime/protocol';
import { useBlobUrl } from './blob-url';

/** A PNG/JPEG output: inline base64 while live, a stored blob once saved. */
export function ImageOutput({ value, mediaType, index }: { value: string; mediaType: string; index: number }) {
  const blobUrl = useBlobUrl();
  const src = BLOB_REF_PATTERN.test(value) ? blobUrl(value.slice('blob:'.length)) : `data:${mediaType};base64,${value}`;
  const [zoomed, setZoomed] = useState(false);
  return (
    <figure className="my-2">
      <button type="button" onClick={() => setZoomed(true)} aria-label={`Zoom figure ${index}`} className="block cursor-zoom-in">
        {/* eslint-disable-next-line @next/next/no-img-element -- data: and blob URLs, sized by the figure */}
        <img src={src} alt={`Figure ${index}`} className="max-h-[32rem] max-w-full rounded border border-zinc-200 bg-white dark:border-zinc-700" />
      </button>
      {zoomed && (
        <button type="button" onClick={() => setZoomed(false)} aria-label="Close zoomed figure" className="fixed inset-0 z-50 flex cursor-zoom-out items-center justify-center bg-black/70 p-4">
          {/* eslint-disable-next-line @next/next/no-img-element -- the same image, full size */}
          <img src={src} alt="" className="max-h-full max-w-full bg-white" />
        </button>
      )}
      <figcaption className="sr-only">Figure {index}</figcaption>
      <a href={src} download={`figure-${index}.png`} className="mt-1 inline-block text-xs text-zinc-500 underline hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200">
        Download PNG
      </a>
    </figure>
  );
}
