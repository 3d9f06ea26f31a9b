'use client';

import { formatBytes } from '@/lib/format';
import type { Upload } from './use-uploads';

/** Where a file's bytes live, as the chip says it. */
export const LOCATION_WORDS = { device: 'on this device', account: 'in your account' } as const;

/** Where the upload is, in words: the bar alone would sit full while the server stores the file. */
function phaseWords(upload: Upload): string | null {
  switch (upload.status) {
    case 'keeping':
      return `Keeping on this device… ${upload.size > 0 ? Math.floor((100 * upload.sent) / upload.size) : 0}%`;
    case 'sending':
      return `sending ${upload.size > 0 ? Math.floor((100 * upload.sent) / upload.size) : 0}%`;
    case 'storing':
      return 'storing…';
    case 'done':
      return 'ready';
    case 'error':
      return null;
  }
}

/**
 * Files waiting to go with the next message: name, size, where the upload is (`data-upload-status`:
 * keeping · sending · storing · done · error) and where the file lives (`data-file-location`:
 * device · account); removable before sending.
 */
export function FileChips({ uploads, onRemove, onSwitch }: { uploads: Upload[]; onRemove: (localId: string) => void; onSwitch?: (localId: string) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul aria-label="Attached files" className="mb-2 flex flex-wrap gap-2">
      {uploads.map((upload) => {
        const words = phaseWords(upload);
        return (
          <li
            key={upload.localId}
            data-upload-status={upload.status}
            data-file-location={upload.location}
            aria-busy={upload.status === 'sending' || upload.status === 'storing' || upload.status === 'keeping'}
            className={`flex max-w-full items-center gap-2 rounded-full border px-3 py-1 text-sm ${
              upload.status === 'error' ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200' : 'border-zinc-300 dark:border-zinc-700'
            }`}
          >
            <span className="truncate font-mono">{upload.name}</span>
            <span className="text-zinc-500">{formatBytes(upload.size)}</span>
            {(upload.status === 'sending' || upload.status === 'keeping') && (
              <progress aria-label={`${upload.status === 'keeping' ? 'Keeping' : 'Sending'} ${upload.name}`} max={Math.max(1, upload.size)} value={upload.sent} className="h-1.5 w-16" />
            )}
            {words && (
              <span data-testid="upload-phase" className={upload.status === 'done' ? 'text-emerald-700 dark:text-emerald-400' : 'text-zinc-500'}>
                {words}
              </span>
            )}
            {upload.status === 'done' && (
              <span data-testid="file-location" className="text-zinc-500">
                {LOCATION_WORDS[upload.location]}
              </span>
            )}
            {upload.status === 'done' && onSwitch && (
              <button type="button" onClick={() => onSwitch(upload.localId)} className="text-xs underline" aria-label={`Keep ${upload.name} ${upload.location === 'device' ? 'in your account' : 'on this device'}`}>
                {upload.location === 'device' ? 'Keep in your account' : 'Keep on this device'}
              </button>
            )}
            {upload.switchError && <span role="alert" className="text-red-700 dark:text-red-300">{upload.switchError}</span>}
            {upload.status === 'error' && <span role="alert">{upload.error}</span>}
            <button type="button" onClick={() => onRemove(upload.localId)} aria-label={`Remove ${upload.name}`} className="text-zinc-500 hover:text-zinc-900 dark:hover:text-zinc-100">
              ✕
            </button>
          </li>
        );
      })}
    </ul>
  );
}
