'use client';
/**
 * The admin page's sign-in and access sections: invite someone (a link to copy, mailed when the
 * server can), revoke an invitation, approve or refuse a sign-up waiting in invite mode, change a
 * role, have a password-reset link mailed to the account (without a mail server: shown once, and
 * not offered for an admin's or an owner's account). Every write is refused or done in words (role=status).
 */
import { useState } from 'react';
import { z } from 'zod';
import { readJsonAs } from '@/lib/http/error-body.client';
import { adminButton as button, adminField as field, useAdminWrite } from './use-admin-write';

type InvitationView = { id: string; email: string; role: string; expiresAt: string };
/** invited: an open invitation names this email, so the sign-up may be a squat and is not offered for approval. */
type PendingView = { id: string; email: string; name: string; createdAt: string; emailVerified: boolean; invited: boolean };
/** passwordLink: whether this admin may ask for one (mailed to the account, or shown when no mail server and the account is no admin's). */
type AccountView = { id: string; email: string; name: string; role: 'admin' | 'member'; emailVerified: boolean; fixed: boolean; self: boolean; hasPassword: boolean; passwordLink: boolean };
type Props = { inviteMode: boolean; mailConfigured: boolean; invitations: InvitationView[]; pending: PendingView[]; accounts: AccountView[] };
type Shown = { title: string; link: string; expiresAt: string; emailed: boolean | null };

const sentLinkSchema = z.object({ link: z.url(), expiresAt: z.string(), emailed: z.boolean().nullable() });
/** A password link mailed to the account's own email: the admin is told, never shown it. */
const mailedSchema = z.object({ emailed: z.literal(true) });
const when = (iso: string) => new Date(iso).toLocaleString();

export function AccessAdmin({ inviteMode, mailConfigured, invitations, pending, accounts }: Props) {
  const { write, message, setMessage, disabled } = useAdminWrite();
  const [shown, setShown] = useState<Shown | null>(null);

  const showLink = (title: string) => async (response: Response) => {
    const sent = await readJsonAs(response, sentLinkSchema);
    if (!sent) return 'Done, but the link could not be read: reload the page.';
    setShown({ title, ...sent });
    return null;
  };

  const invite = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const email = String(data.get('email') ?? '').trim();
    void write('/api/admin/invitations', 'POST', { email, role: String(data.get('role') ?? 'member') }, async (response) => {
      form.reset();
      return showLink(`Invitation for ${email}`)(response);
    });
  };

  return (
    <div className="mt-10 flex flex-col gap-10">
      {message && (
        <p role="status" className="text-sm">
          {message}
        </p>
      )}
      {shown && <LinkHandover shown={shown} onCopied={setMessage} />}

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading" className="text-lg font-semibold">
          Invite someone
        </h2>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          A link that makes one account for this email, once, within 7 days{mailConfigured ? '; it is also mailed to them' : ''}. An invited person gets in even when this Runpad is invite-only.
        </p>
        <form
          className="mt-2 flex flex-wrap gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            invite(event.currentTarget);
          }}
        >
          <input name="email" type="email" required placeholder="name@example.com" aria-label="Email to invite" className={`${field} w-64`} />
          <select name="role" aria-label="Role" className={field} defaultValue="member">
            <option value="member">member</option>
            <option value="admin">admin</option>
          </select>
          <button type="submit" disabled={disabled} className={button}>
            Invite
          </button>
        </form>
        <h3 className="mt-4 text-sm font-semibold">Open invitations</h3>
        {invitations.length === 0 ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">None.</p>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="invitations">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex items-center gap-3 py-1.5 text-sm" data-invitation={invitation.email}>
                <span className="flex-1">
                  {invitation.email} · {invitation.role} · until {when(invitation.expiresAt)}
                </span>
                <button type="button" className={button} disabled={disabled} onClick={() => void write(`/api/admin/invitations/${invitation.id}`, 'DELETE', null, async () => `The invitation for ${invitation.email} was revoked.`)}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {inviteMode && (
        <section aria-labelledby="pending-heading">
          <h2 id="pending-heading" className="text-lg font-semibold">
            Waiting for approval
          </h2>
          {pending.length === 0 ? (
            <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">Nobody is waiting.</p>
          ) : (
            <ul className="mt-1 divide-y divide-zinc-200 dark:divide-zinc-800">
              {pending.map((person) => (
                <li key={person.id} className="flex items-center gap-3 py-1.5 text-sm" data-pending={person.email}>
                  <span className="flex-1">
                    {person.email} ({person.name}){person.emailVerified ? '' : ' · email not verified'} · signed up {when(person.createdAt)}
                    {person.invited && <span className="block text-xs text-zinc-700 dark:text-zinc-300">An invitation is open for this email: this sign-up may not be theirs. Refuse it; the invited person uses their link.</span>}
                  </span>
                  {!person.invited && (
                    <button type="button" className={button} disabled={disabled} onClick={() => void write(`/api/admin/accounts/${person.id}`, 'PATCH', { approved: true }, async () => `${person.email} was approved and can sign in.`)}>
                      Approve
                    </button>
                  )}
                  <button
                    type="button"
                    className={button}
                    disabled={disabled}
                    onClick={() => void write(`/api/admin/accounts/${person.id}`, 'DELETE', null, async () => `The sign-up of ${person.email} was refused and deleted.`)}
                  >
                    Refuse
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <AccountsSection accounts={accounts} mailConfigured={mailConfigured} write={write} disabled={disabled} showLink={showLink} />
    </div>
  );
}

/** A link an admin hands over (an invitation, a password link): until when it works, whether it was mailed, Copy. */
function LinkHandover({ shown, onCopied }: { shown: Shown; onCopied: (words: string) => void }) {
  return (
    <section aria-label="Link to hand over" className="rounded-lg border border-zinc-300 p-3 dark:border-zinc-700">
      <p className="text-sm font-medium">{shown.title}</p>
      <p className="mt-1 text-xs text-zinc-700 dark:text-zinc-300">
        Works once, until {when(shown.expiresAt)}.{' '}
        {shown.emailed === true ? 'It was also mailed.' : shown.emailed === false ? 'The mail could not be sent (see the server log): hand the link over yourself.' : 'Hand it over yourself: no mail server is configured.'}
      </p>
      <div className="mt-2 flex gap-2">
        <input readOnly value={shown.link} aria-label="Link" data-testid="shown-link" className={`${field} flex-1 font-mono`} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className={button} onClick={() => void navigator.clipboard?.writeText(shown.link).then(() => onCopied('Link copied.'), () => onCopied('Select the link and copy it.'))}>
          Copy
        </button>
      </div>
    </section>
  );
}

type Write = ReturnType<typeof useAdminWrite>['write'];

/** The accounts and their roles: Make admin or member, and a password link (mailed, or shown to hand over). */
function AccountsSection({ accounts, mailConfigured, write, disabled, showLink }: { accounts: AccountView[]; mailConfigured: boolean; write: Write; disabled: boolean; showLink: (title: string) => (response: Response) => Promise<string | null> }) {
  return (
      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading" className="text-lg font-semibold">
          Accounts and roles
        </h2>
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-300 dark:border-zinc-700">
              <th className="py-2">Account</th>
              <th>Role</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id} className="border-b border-zinc-200 dark:border-zinc-800" data-account={account.email}>
                <td className="py-1.5">
                  {account.email}
                  {account.self ? ' (you)' : ''}
                  {account.emailVerified ? '' : ' · email not verified'}
                </td>
                <td>{account.fixed ? 'admin (RUNPAD_ADMIN_EMAILS)' : account.role}</td>
                <td className="flex flex-wrap justify-end gap-2 py-1.5">
                  {!account.fixed && !account.self && (
                    <button
                      type="button"
                      className={button}
                      disabled={disabled}
                      onClick={() => {
                        const role = account.role === 'admin' ? 'member' : 'admin';
                        void write(`/api/admin/accounts/${account.id}`, 'PATCH', { role }, async () => `${account.email} is now ${role === 'admin' ? 'an admin' : 'a member'}.`);
                      }}
                    >
                      {account.role === 'admin' ? 'Make member' : 'Make admin'}
                    </button>
                  )}
                  {account.passwordLink && (
                    <button type="button" className={button} disabled={disabled} onClick={() => void write(`/api/admin/accounts/${account.id}/password-reset`, 'POST', null, mailConfigured ? async (response) => ((await readJsonAs(response, mailedSchema)) ? `A link that sets a password was mailed to ${account.email}.` : 'Done, but the answer could not be read: reload the page.') : showLink(`Link that sets a password for ${account.email}${account.hasPassword ? '' : ' (this account has none yet)'}`))}>
                      {mailConfigured ? 'Mail a password link' : 'Password link'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
  );
}
