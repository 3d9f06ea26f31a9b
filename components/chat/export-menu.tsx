'use client';

import { useCallback, useId, useRef, useState } from 'react';
import { useDismiss } from '@/components/ui/use-dismiss';
import { scriptForm, WITH_DATA_LABEL, type ScriptLanguage } from '@/lib/notebook/script-language';

type ExportMenuProps = {
  /** `/api/conversations/<id>` or `/api/shares/<shareId>`: the export routes live under it. */
  basePath: string;
  /** What is downloaded, for screen readers ("conversation", "shared conversation"). */
  subject?: string;
  /** The script the conversation exports as (an R-only conversation is an .R script). */
  script?: ScriptLanguage;
  /** Offer the zip with the notebook, the script and the conversation's files (the owner's conversation only). */
  withData?: boolean;
};

/**
 * Download: a disclosure (button + links) to the conversation as a Jupyter notebook or a script
 * (Python, or R when it ran only R: lib/notebook/script-language.ts), and, for the owner, both with
 * the conversation's files as one zip that runs where it is unpacked (lib/notebook/bundle.server.ts). The links are plain downloads served by the export routes; Escape or a click
 * elsewhere closes the list, and Escape gives focus back to the button.
 */
export function ExportMenu({ basePath, subject = 'conversation', script = 'python', withData = false }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, root, button);

  const item = 'block whitespace-nowrap px-3 py-1.5 hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none dark:hover:bg-zinc-800 dark:focus-visible:bg-zinc-800';
  return (
    <div ref={root} className="text-xs max-sm:static sm:relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <svg aria-hidden viewBox="0 0 24 24" className="size-4 sm:hidden" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
        </svg>
        <span className="max-sm:sr-only">Download</span>
        <span className="sr-only"> this {subject}</span>
      </button>
      <ul
        id={listId}
        hidden={!open}
        aria-label={`Download this ${subject} as`}
        className="absolute right-2 top-full z-30 mt-1 min-w-max rounded-lg border border-zinc-200 bg-white py-1 shadow-lg sm:right-0 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <li>
          <a href={`${basePath}/notebook`} download onClick={() => setOpen(false)} className={item}>
            Notebook (.ipynb)
          </a>
        </li>
        <li>
          <a href={`${basePath}/script`} download onClick={() => setOpen(false)} className={item}>
            {scriptForm(script).label}
          </a>
        </li>
        {withData && (
          <li>
            <a href={`${basePath}/bundle`} download onClick={() => setOpen(false)} className={item}>
              {WITH_DATA_LABEL}
            </a>
          </li>
        )}
      </ul>
    </div>
  );
}
