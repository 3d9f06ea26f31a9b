'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { failureWords } from '@/lib/http/error-body.client';

export const adminButton = 'rounded border border-zinc-300 px-2 py-0.5 text-sm disabled:opacity-60 dark:border-zinc-700';
export const adminField = 'rounded border border-zinc-300 px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950';

/**
 * One admin write at a time: refused in the server's words, else `done`'s words and the page's
 * lists reloaded (router.refresh). `disabled` while one is on its way or before the page hydrated.
 */
export function useAdminWrite() {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  const write = async (url: string, method: string, body: object | null, done: (response: Response) => Promise<string | null>) => {
    setBusy(true);
    setMessage(null);
    try {
      const response = await fetch(url, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) }).catch(() => null);
      if (!response?.ok) {
        setMessage(await failureWords(response, 'The change could not be saved: Runpad could not be reached. Try again.'));
        return;
      }
      setMessage(await done(response));
      router.refresh();
    } finally {
      setBusy(false);
    }
  };
  return { write, message, setMessage, disabled: busy || !hydrated };
}
