'use client';

import { useState } from 'react';

/**
 * Said once, plainly, when the package source does not answer: imports of numpy, pandas or
 * matplotlib would fail, and the user should know before asking, not from a red traceback.
 */
export function PackageSourceNotice({ packageBaseUrl }: { packageBaseUrl: string }) {
  const [dismissed, setDismissed] = useState(false);
  const source = URL.canParse(packageBaseUrl) ? new URL(packageBaseUrl).host : 'this site’s package mirror';
  if (dismissed) return null;
  return (
    <div role="status" data-testid="package-source-notice" className="mb-2 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
      <p className="flex-1">
        Extra Python packages (numpy, pandas, matplotlib…) can’t be downloaded right now: {source} isn’t answering. Code still runs with Python’s standard library, and
        tables, interactive charts, SQL and diagrams still work.
      </p>
      <button type="button" onClick={() => setDismissed(true)} className="shrink-0 rounded px-2 py-0.5 font-medium underline hover:no-underline">
        Dismiss
      </button>
    </div>
  );
}
