'use client';

import { useId, useState, type ReactNode } from 'react';

const TONES = {
  amber: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100',
  blue: 'border-blue-300 bg-blue-50 text-blue-950 dark:border-blue-800 dark:bg-blue-950/40 dark:text-blue-100',
  zinc: 'border-zinc-300 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200',
} as const;

export type NoticeProps = {
  testId: string;
  tone: keyof typeof TONES;
  /** The one line always shown (cut with an ellipsis when the screen is narrow; whole in `title`). */
  summary: string;
  /** The whole story, opened by the line itself; none: the line is plain text. */
  detail?: ReactNode;
  /** Buttons at the line's end (Dismiss, Stop, the action it offers). */
  actions?: ReactNode;
  /** A status region (read out when it appears), or a plain offer. */
  status?: boolean;
  /** Extra data attributes, such as the state the notice shows. */
  data?: Record<`data-${string}`, string>;
};

/**
 * A notice above the composer, one line high so that the conversation keeps the screen (a phone's
 * 844 px): what happened in a few words (the line is the toggle of its details), and its actions. The detail stays in the
 * page while closed (hidden), so what a notice says is one text, whichever part is open.
 */
export function Notice({ testId, tone, summary, detail, actions, status = true, data }: NoticeProps) {
  const [open, setOpen] = useState(false);
  const detailId = useId();
  return (
    <div role={status ? 'status' : undefined} data-testid={testId} {...data} className={`mb-2 rounded-lg border px-2.5 py-1.5 text-sm max-sm:text-[13px] sm:px-3 ${TONES[tone]}`}>
      <div className="flex min-w-0 items-center gap-2">
        {detail === undefined ? (
          <p className="min-w-0 flex-1 truncate" title={summary}>
            {summary}
          </p>
        ) : (
          // The line itself opens the details: no second button to find room for on a phone.
          <p className="flex min-w-0 flex-1">
            <button type="button" aria-expanded={open} aria-controls={detailId} onClick={() => setOpen((o) => !o)} title={summary} className="flex min-w-0 items-center gap-1 text-left hover:underline">
              <span className="truncate">{summary}</span>
              <span aria-hidden="true" className={`shrink-0 text-xs transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`}>
                ▾
              </span>
            </button>
          </p>
        )}
        {actions}
      </div>
      {detail !== undefined && (
        <div id={detailId} hidden={!open} className="mt-1">
          {detail}
        </div>
      )}
    </div>
  );
}

/** The look of a notice's buttons. */
export const noticeButton = 'shrink-0 whitespace-nowrap rounded px-1.5 font-medium underline hover:no-underline';
