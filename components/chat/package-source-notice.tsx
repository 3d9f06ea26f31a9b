'use client';

import { useState } from 'react';
import { packageNoticeText, type UnreachableSources } from './package-source-words';

/**
 * Said once, plainly, when a package source does not answer: imports of numpy, pandas or
 * matplotlib, or R's library(ggplot2), would fail, and the user should know before asking, not
 * from a red traceback. Give it a `key` of what is unreachable, so news after a Dismiss is shown.
 */
export function PackageSourceNotice({ unreachable }: { unreachable: UnreachableSources }) {
  const [dismissed, setDismissed] = useState(false);
  const text = packageNoticeText(unreachable);
  if (dismissed || !text) return null;
  return (
    <div role="status" data-testid="package-source-notice" className="mb-2 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
      <p className="flex-1">{text}</p>
      <button type="button" onClick={() => setDismissed(true)} className="shrink-0 rounded px-2 py-0.5 font-medium underline hover:no-underline">
        Dismiss
      </button>
    </div>
  );
}
