'use client';
/**
 * The admin page's groups: make one (a name, members by email), rename it, add members, take one
 * out, delete it. A member the sign-in provider's groups claim put there is marked so (the next
 * sign-in decides for them). Every write is refused or done in words (role=status).
 */
import { useId } from 'react';
import { adminButton as button, adminField as field, useAdminWrite } from './use-admin-write';

export type GroupRowView = { id: string; name: string; members: Array<{ userId: string; email: string | null; source: 'admin' | 'oidc' }> };

/** The emails typed: one a line, or separated by commas or semicolons. */
const emailsIn = (text: string) => text.split(/[\n,;]+/).map((email) => email.trim()).filter(Boolean);

export function GroupsAdmin({ groups, claim }: { groups: GroupRowView[]; claim: string | null }) {
  const { write, message, disabled } = useAdminWrite();
  const ids = { name: useId(), emails: useId() };
  return (
    <section aria-labelledby="groups-heading" className="mt-10">
      <h2 id="groups-heading" className="text-lg font-semibold">
        Groups
      </h2>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        A group can be a project’s member or a conversation’s reader. Taking someone out ends what the group gave them at once.
        {claim ? ` The sign-in provider’s “${claim}” claim also puts people in groups, at each sign-in.` : ''}
      </p>
      <p role="status" className="mt-1 text-sm">
        {message}
      </p>
      <form
        className="mt-2 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const name = String(data.get('name') ?? '');
          void write('/api/admin/groups', 'POST', { name, emails: emailsIn(String(data.get('emails') ?? '')) }, async () => {
            form.reset();
            return `The group ${name.trim()} was made.`;
          });
        }}
      >
        <span className="flex flex-col text-sm">
          <label htmlFor={ids.name}>New group’s name</label>
          <input id={ids.name} name="name" required maxLength={200} className={`${field} w-56`} />
        </span>
        <span className="flex flex-col text-sm">
          <label htmlFor={ids.emails}>Members’ emails (one a line, or commas)</label>
          <textarea id={ids.emails} name="emails" rows={1} className={`${field} w-72`} />
        </span>
        <button type="submit" disabled={disabled} className={button}>
          Make group
        </button>
      </form>
      {groups.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">No group yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="groups">
          {groups.map((group) => (
            <GroupRow key={group.id} group={group} write={write} disabled={disabled} />
          ))}
        </ul>
      )}
    </section>
  );
}

type Write = ReturnType<typeof useAdminWrite>['write'];

/** One group: its name (to change), its members (each with Remove), emails to add, Delete. */
function GroupRow({ group, write, disabled }: { group: GroupRowView; write: Write; disabled: boolean }) {
  const base = `/api/admin/groups/${group.id}`;
  return (
    <li className="space-y-2 py-3 text-sm" data-group={group.name}>
      <h3 className="break-words font-medium">{group.name}</h3>
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const name = String(data.get('name') ?? '');
          const emails = emailsIn(String(data.get('emails') ?? ''));
          const form = event.currentTarget;
          void write(base, 'PATCH', { ...(name.trim() !== group.name ? { name } : {}), ...(emails.length > 0 ? { emails } : {}) }, async () => {
            form.reset();
            return `The group ${name.trim()} was saved${emails.length > 0 ? `, with ${emails.length === 1 ? emails[0] : `${emails.length} people`} added` : ''}.`;
          });
        }}
      >
        <input name="name" defaultValue={group.name} required maxLength={200} aria-label={`Name of the group ${group.name}`} className={`${field} w-56`} />
        <input name="emails" placeholder="emails to add" aria-label={`Emails to add to ${group.name}`} className={`${field} w-64`} />
        <button type="submit" disabled={disabled} className={button}>
          Save
        </button>
        <button type="button" disabled={disabled} className={button} onClick={() => void write(base, 'DELETE', null, async () => `The group ${group.name} was deleted.`)}>
          Delete group<span className="sr-only"> {group.name}</span>
        </button>
      </form>
      {group.members.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">No members.</p>
      ) : (
        <ul aria-label={`Members of ${group.name}`} className="flex flex-wrap gap-2">
          {group.members.map((member) => (
            <li key={member.userId} className="flex items-center gap-1 rounded border border-zinc-200 px-2 py-0.5 dark:border-zinc-800">
              {/* A long email may break anywhere; the note on where the membership came from never does. */}
              <span className="min-w-0">
                <span className="break-all">{member.email ?? 'a deleted account'}</span>
                {member.source === 'oidc' ? <span className="whitespace-nowrap"> (from sign-in)</span> : null}
              </span>
              <button type="button" disabled={disabled} className="underline disabled:opacity-60" onClick={() => void write(`${base}/members/${member.userId}`, 'DELETE', null, async () => `${member.email ?? 'The account'} was taken out of ${group.name}.`)}>
                Remove<span className="sr-only"> {member.email} from {group.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
