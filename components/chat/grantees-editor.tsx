'use client';

import { useEffect, useId, useState } from 'react';
import { z } from 'zod';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';

const granteeSchema = z.object({ id: z.uuid(), email: z.string().nullable(), groupName: z.string().nullable(), role: z.enum(['use', 'edit']).optional() });
/** An email a project invited that no account has yet (listed to its owner and editors only). */
const invitationSchema = z.object({ id: z.uuid(), email: z.string(), role: z.enum(['use', 'edit']) });
type Grantee = z.infer<typeof granteeSchema> & { invited?: boolean };
/** What adding an email no account has answers: what the inviter reads (whether a mail went, what to tell them). */
const invitedSchema = z.object({ status: z.literal('invited'), message: z.string() });
const groupsSchema = z.object({ groups: z.array(z.object({ id: z.uuid(), name: z.string() })) });
const ROLE_WORDS = { use: 'Can use', edit: 'Can edit' } as const;
const small = 'rounded px-1.5 py-0.5 underline hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800';
const field = 'min-w-0 rounded border border-zinc-300 bg-transparent px-1.5 py-1 dark:border-zinc-600 dark:bg-zinc-900';

export type GranteesEditorProps = {
  /** Where the list is read (its JSON holds it under `listKey`), added to (POST) and removed from (`<base>/<id>` DELETE). */
  listUrl: string;
  listKey: 'readers' | 'members';
  base: string;
  /** The label of the email field, and of the list. */
  label: string;
  listLabel: string;
  /** A project's members have a role (Can use, Can edit); a conversation's readers none. */
  withRole: boolean;
};

/**
 * People and groups a conversation or a project is shared with: the list with Remove for each, an
 * email or a group (the instance's groups, GET /api/groups) to add, with a role for a project (an
 * email no account has yet is invited: listed as "Invited" until its account exists). The
 * server decides who may and words every refusal; the outcome is said in a live region.
 */
export function GranteesEditor({ listUrl, listKey, base, label, listLabel, withRole }: GranteesEditorProps) {
  const [grantees, setGrantees] = useState<Grantee[]>([]);
  const [groups, setGroups] = useState<Array<{ id: string; name: string }>>([]);
  const [email, setEmail] = useState('');
  const [groupId, setGroupId] = useState('');
  const [role, setRole] = useState<'use' | 'edit'>('use');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { email: useId(), group: useId(), role: useId() };
  /** Bumped after each change: the list is read again. */
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const aborted = new AbortController();
    const listSchema = z.object({ [listKey]: z.array(granteeSchema) });
    const pendingSchema = z.object({ invitations: z.array(invitationSchema) });
    void fetch(listUrl, { signal: aborted.signal })
      .then(async (response): Promise<unknown> => (response.ok ? response.json() : null))
      .then((json) => {
        const listed = listSchema.safeParse(json);
        if (!listed.success) return;
        const pending = pendingSchema.safeParse(json);
        const invited: Grantee[] = pending.success ? pending.data.invitations.map((row) => ({ ...row, groupName: null, invited: true })) : [];
        setGrantees([...(listed.data[listKey] ?? []), ...invited]);
      })
      .catch(() => undefined);
    return () => aborted.abort();
  }, [listUrl, listKey, version]);
  useEffect(() => {
    const aborted = new AbortController();
    void fetch('/api/groups', { signal: aborted.signal })
      .then(async (response) => (response.ok ? readJsonAs(response, groupsSchema) : null))
      .then((body) => body && setGroups(body.groups))
      .catch(() => undefined);
    return () => aborted.abort();
  }, []);

  const add = async (named: { email: string } | { groupId: string }, shown: string) => {
    setBusy(true);
    setMessage('');
    const body = JSON.stringify({ ...named, ...(withRole ? { role } : {}) });
    const response = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => null);
    setBusy(false);
    if (!response?.ok) return setMessage(await failureWords(response, 'Runpad could not be reached: try again.'));
    const invited = await readJsonAs(response, invitedSchema).catch(() => null);
    setMessage(invited ? invited.message : `Shared with ${shown}.`);
    setEmail('');
    setGroupId('');
    setVersion((value) => value + 1);
  };
  const remove = async (grantee: Grantee) => {
    const response = await fetch(`${base}/${grantee.id}`, { method: 'DELETE' }).catch(() => null);
    if (!response?.ok) return setMessage(await failureWords(response, 'Runpad could not be reached: try again.'));
    setMessage(grantee.invited ? `The invitation for ${grantee.email ?? ''} is removed.` : `${grantee.email ?? `The group ${grantee.groupName ?? ''}`} no longer has access.`);
    setVersion((value) => value + 1);
  };
  const chosenGroup = groups.find((group) => group.id === groupId);

  return (
    <div className="space-y-1">
      {/* noValidate: the browser's email check refuses addresses accounts here hold (other scripts, quotes); the server checks and words its refusal. */}
      <form
        noValidate
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) return;
          if (email.trim() !== '') void add({ email: email.trim() }, email.trim());
          else if (chosenGroup) void add({ groupId: chosenGroup.id }, `the group ${chosenGroup.name}`);
        }}
      >
        <span className="flex min-w-0 flex-1 basis-40 flex-col">
          <label htmlFor={ids.email} className="text-zinc-700 dark:text-zinc-300">
            {label}
          </label>
          <input id={ids.email} type="email" value={email} onChange={(event) => setEmail(event.target.value)} placeholder="name@example.com" className={field} />
        </span>
        {groups.length > 0 && (
          <span className="flex min-w-0 basis-32 flex-col">
            <label htmlFor={ids.group} className="text-zinc-700 dark:text-zinc-300">
              or a group
            </label>
            <select id={ids.group} value={groupId} onChange={(event) => setGroupId(event.target.value)} className={field}>
              <option value="">—</option>
              {groups.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
          </span>
        )}
        {withRole && (
          <span className="flex flex-col">
            <label htmlFor={ids.role} className="text-zinc-700 dark:text-zinc-300">
              Role
            </label>
            <select id={ids.role} value={role} onChange={(event) => setRole(event.target.value === 'edit' ? 'edit' : 'use')} className={field}>
              <option value="use">{ROLE_WORDS.use}</option>
              <option value="edit">{ROLE_WORDS.edit}</option>
            </select>
          </span>
        )}
        <button type="submit" disabled={busy || (email.trim() === '' && !chosenGroup)} className={small}>
          Add
        </button>
      </form>
      <p role="status" className="text-zinc-700 dark:text-zinc-300">
        {message}
      </p>
      {grantees.length > 0 && (
        <ul aria-label={listLabel} className="space-y-1">
          {grantees.map((grantee) => {
            const name = grantee.email ?? `Group: ${grantee.groupName ?? 'deleted'}`;
            return (
              <li key={grantee.id} className="flex items-center gap-2">
                <span className="min-w-0 flex-1 break-all">{name}</span>
                {grantee.invited && <span className="rounded bg-amber-100 px-1.5 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">Invited</span>}
                {grantee.role && <span className="text-zinc-600 dark:text-zinc-400">{ROLE_WORDS[grantee.role]}</span>}
                <button type="button" onClick={() => void remove(grantee)} className={small}>
                  Remove<span className="sr-only"> {name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
