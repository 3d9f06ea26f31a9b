'use client';

import { useState } from 'react';
import { Notice, noticeButton } from '@/components/ui/notice';
import { packageNoticeSummary, packageNoticeText, type UnreachableSources } from './package-source-words';

/**
 * Said once, plainly, when a package source does not answer: imports of numpy, pandas or
 * matplotlib, or R's library(ggplot2), would fail, and the user should know before asking, not
 * from a red traceback. One line, the whole story under Details. Give it a `key` of what is
 * unreachable, so news after a Dismiss is shown.
 */
export function PackageSourceNotice({ unreachable }: { unreachable: UnreachableSources }) {
  const [dismissed, setDismissed] = useState(false);
  const text = packageNoticeText(unreachable);
  const summary = packageNoticeSummary(unreachable);
  if (dismissed || !text || !summary) return null;
  return (
    <Notice
      testId="package-source-notice"
      tone="amber"
      summary={summary}
      detail={<p>{text}</p>}
      actions={
        <button type="button" onClick={() => setDismissed(true)} className={noticeButton}>
          <span aria-hidden="true" className="sm:hidden">
            ×
          </span>
          <span className="max-sm:sr-only">Dismiss</span>
        </button>
      }
    />
  );
}
