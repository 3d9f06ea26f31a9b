import { BLOB_REF_PATTERN } from '@/lib/runtime/protocol';

/** A PNG/JPEG output: inline base64 while live, a blob URL once stored. */
export function imageSrc(value: string, mediaType: string): string {
  return BLOB_REF_PATTERN.test(value) ? `/api/blobs/${value.slice('blob:'.length)}` : `data:${mediaType};base64,${value}`;
}

export function ImageOutput({ value, mediaType, index }: { value: string; mediaType: string; index: number }) {
  const src = imageSrc(value, mediaType);
  return (
    <figure className="my-2">
      {/* eslint-disable-next-line @next/next/no-img-element -- data: and blob URLs, sized by the figure */}
      <img src={src} alt={`Figure ${index}`} className="max-h-[32rem] max-w-full rounded border border-zinc-200 bg-white dark:border-zinc-700" />
      <figcaption className="sr-only">Figure {index}</figcaption>
      <a href={src} download={`figure-${index}.png`} className="mt-1 inline-block text-xs text-zinc-500 underline hover:text-zinc-800 dark:hover:text-zinc-200">
        Download PNG
      </a>
    </figure>
  );
}
