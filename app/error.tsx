'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';

/**
 * A page whose server-side data could not be loaded (lib/http/page-errors.server.ts logged why, under the
 * reference shown here). In production Next hands the browser no message, only the digest, so the
 * words are this page's own: what most likely happened and what to do.
 */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-6 py-16 text-center" data-testid="page-error">
      <h1 className="text-2xl font-semibold">This page could not be loaded</h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
        The server could not read what this page shows, most likely because its database is restarting or unreachable. Nothing you had stored is lost. Try again in a
        moment.
      </p>
      {error.digest ? <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="page-error-reference">Reference (for whoever runs this server): {error.digest}</p> : null}
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          disabled={retrying}
          onClick={() =>
            startRetry(() => {
              router.refresh();
              reset();
            })
          }
          className="rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60"
        >
          {retrying ? 'Trying again…' : 'Try again'}
        </button>
        <Link href="/" className="rounded-lg border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800">
          Start a new conversation
        </Link>
      </div>
    </main>
  );
}
