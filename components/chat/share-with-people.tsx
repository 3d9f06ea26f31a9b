'use client';

import { useEffect, useId, useState } from 'react';
import { z } from 'zod';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';

const readersSchema = z.object({ readers: z.array(z.object({ id: z.uuid(), email: z.string().nullable(), groupName: z.string().nullable() })) });
type Reader = z.infer<typeof readersSchema>['readers'][number];

/**
 * Share with people: the people and groups who may read this conversation at its own address
 * after signing in, an email to add one, and Remove for each. The server decides who may
 * (POST/DELETE /api/conversations/<id>/readers) and words every refusal.
 */
export function ShareWithPeople({ conversationId }: { conversationId: string }) {
  const [readers, setReaders] = useState<Reader[]>([]);
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const base = `/api/conversations/${conversationId}/readers`;

  /** Bumped after each change: the list is read again. */
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((value) => value + 1);
  useEffect(() => {
    const aborted = new AbortController();
    void fetch(base, { signal: aborted.signal })
      .then(async (response) => (response.ok ? readJsonAs(response, readersSchema) : null))
      .then((body) => body && setReaders(body.readers))
      .catch(() => undefined);
    return () => aborted.abort();
  }, [base, version]);

  const add = async () => {
    setBusy(true);
    setMessage('');
    const response = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: email.trim() }) }).catch(() => null);
    setBusy(false);
    if (!response?.ok) return setMessage(await failureWords(response, 'Runpad could not be reached: try again.'));
    setMessage(`Shared with ${email.trim()}.`);
    setEmail('');
    reload();
  };
  const remove = async (reader: Reader) => {
    const response = await fetch(`${base}/${reader.id}`, { method: 'DELETE' }).catch(() => null);
    if (!response?.ok) return setMessage(await failureWords(response, 'Runpad could not be reached: try again.'));
    setMessage(`${reader.email ?? reader.groupName ?? 'The reader'} can no longer read it.`);
    reload();
  };

  return (
    <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-700">
      <label htmlFor={inputId} className="block text-zinc-700 dark:text-zinc-300">
        Share with people (they read it here after signing in)
      </label>
      <form
        className="mt-1 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy && email.trim() !== '') void add();
        }}
      >
        <input id={inputId} type="email" value={email} onChange={(event) => setEmail(event.target.value)} placeholder="name@example.com" className="min-w-0 flex-1 rounded border border-zinc-300 bg-transparent px-1.5 py-1 dark:border-zinc-600" />
        <button type="submit" disabled={busy || email.trim() === ''} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800">
          Add
        </button>
      </form>
      <p role="status" className="mt-1 text-zinc-700 dark:text-zinc-300">
        {message}
      </p>
      {readers.length > 0 && (
        <ul aria-label="Readers" className="mt-1 space-y-1">
          {readers.map((reader) => (
            <li key={reader.id} className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate">{reader.email ?? `Group: ${reader.groupName ?? 'deleted'}`}</span>
              <button type="button" onClick={() => void remove(reader)} className="rounded px-1.5 py-0.5 underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
                Remove<span className="sr-only"> {reader.email ?? reader.groupName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
