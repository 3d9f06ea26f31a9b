'use client';

import { Notice, noticeButton } from '@/components/ui/notice';

/** Said when Stop did not reach the server (components/chat/stop-upstream.ts), until dismissed. */
export function StopFailedNotice({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <Notice
      testId="stop-failed-notice"
      tone="amber"
      summary="Stop didn’t reach the server: the answer may still finish there"
      detail={<p>{message}</p>}
      actions={
        <button type="button" onClick={onDismiss} className={noticeButton}>
          <span aria-hidden="true" className="sm:hidden">
            ×
          </span>
          <span className="max-sm:sr-only">Dismiss</span>
        </button>
      }
    />
  );
}
