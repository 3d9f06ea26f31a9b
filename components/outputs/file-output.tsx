import { formatBytes } from '@/lib/format';

type FileInfo = { name: string; size: number; mediaType: string };

/** A file the run wrote under /output/: a download chip once the bytes are stored. */
export function FileOutput({ file, href }: { file: FileInfo; href?: string }) {
  const label = (
    <>
      <span className="font-mono">{file.name}</span>
      <span className="text-zinc-500 dark:text-zinc-400">{formatBytes(file.size)}</span>
    </>
  );
  return href ? (
    <a href={href} download={file.name} data-output="file" className="inline-flex items-center gap-2 rounded-full border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800">
      {label}
    </a>
  ) : (
    <span data-output="file" className="inline-flex items-center gap-2 rounded-full border border-dashed border-zinc-300 px-3 py-1 text-sm dark:border-zinc-700">
      {label}
    </span>
  );
}
