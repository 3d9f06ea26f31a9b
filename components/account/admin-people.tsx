'use client';
/** The admin page's table: usage per person, block/unblock, per-person limits. */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { formatBytes } from '@/lib/format';
import { failureWords } from '@/lib/http/error-body.client';

type PersonView = {
  id: string;
  email: string | null;
  modelRequests: number;
  storedBytes: number;
  blocked: boolean;
  modelRequestsPerMinute: number | null;
  modelRequestsPerDay: number | null;
  storageBytes: number | null;
  tokensPerDay: number | null;
};

const LIMIT_FIELDS = [
  ['modelRequestsPerMinute', 'Requests a minute'],
  ['modelRequestsPerDay', 'Requests a day'],
  ['storageBytes', 'Storage bytes'],
  ['tokensPerDay', 'Tokens a day'],
] as const;

export function AdminPeople({ people }: { people: PersonView[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const hydrated = useHydrated();

  const change = async (person: PersonView, body: object, done: string) => {
    setMessage(null);
    // No answer at all (offline, the server down) is worded like a refusal: the change was not saved.
    const response = await fetch(`/api/admin/people/${person.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(() => null);
    if (!response?.ok) {
      setMessage(await failureWords(response, 'The change could not be saved: Runpad could not be reached. Try again.'));
      return;
    }
    setMessage(done);
    router.refresh();
  };

  const saveLimits = (person: PersonView, form: HTMLFormElement) => {
    const data = new FormData(form);
    const value = (name: string) => {
      const text = String(data.get(name) ?? '').trim();
      return text === '' ? null : Number(text);
    };
    const limits = Object.fromEntries(LIMIT_FIELDS.map(([name]) => [name, value(name)]));
    if (Object.values(limits).some((v) => v !== null && (!Number.isInteger(v) || v < 1))) {
      setMessage('Limits are whole numbers of at least 1, or empty for the default.');
      return;
    }
    void change(person, { limits }, `Limits saved for ${person.email ?? 'the guest'}.`);
  };

  return (
    <>
      {message && (
        <p role="status" className="mt-4 text-sm">
          {message}
        </p>
      )}
      <table className="mt-4 w-full text-left text-sm">
        <thead>
          <tr className="border-b border-zinc-300 dark:border-zinc-700">
            <th className="py-2">Person</th>
            <th>Model requests</th>
            <th>Stored</th>
            <th>Limits</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person.id} className="border-b border-zinc-200 align-top dark:border-zinc-800" data-person={person.email ?? person.id}>
              <td className="py-2">
                {person.email ?? `Guest ${person.id.slice(0, 8)}`}
                {person.blocked && <span className="ml-2 rounded bg-red-100 px-1.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-300">blocked</span>}
              </td>
              <td>{person.modelRequests}</td>
              <td>
                {formatBytes(person.storedBytes)}
                {person.storageBytes !== null && ` of ${formatBytes(person.storageBytes)}`}
              </td>
              <td>
                <form
                  className="flex flex-wrap gap-1"
                  onSubmit={(event) => {
                    event.preventDefault();
                    saveLimits(person, event.currentTarget);
                  }}
                >
                  {LIMIT_FIELDS.map(([name, label]) => (
                    <input key={name} name={name} aria-label={`${label} for ${person.email ?? person.id}`} placeholder={label} defaultValue={person[name] ?? ''} inputMode="numeric" className="w-28 rounded border border-zinc-300 px-1.5 py-0.5 dark:border-zinc-700 dark:bg-zinc-950" />
                  ))}
                  <button type="submit" disabled={!hydrated} className="rounded border border-zinc-300 px-2 py-0.5 disabled:opacity-60 dark:border-zinc-700">
                    Save limits
                  </button>
                </form>
              </td>
              <td>
                <button type="button" disabled={!hydrated} className="rounded border border-zinc-300 px-2 py-0.5 disabled:opacity-60 dark:border-zinc-700" onClick={() => change(person, { blocked: !person.blocked }, person.blocked ? 'Unblocked.' : 'Blocked.')}>
                  {person.blocked ? 'Unblock' : 'Block'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
