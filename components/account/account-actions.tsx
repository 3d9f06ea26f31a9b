'use client';
/** The account page's actions: sign devices out, add a passkey, export, delete the account. */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { failureWords } from '@/lib/http/error-body.client';
import { signInPath } from '@/lib/http/redirect-target';
import { authClient, authErrorText } from './auth-client';

type SessionRow = { id: string; userAgent: string | null; createdAt: string; updatedAt: string };
type PasskeyRow = { id: string; name: string | null; createdAt: string | null };
type Props = { currentSessionId: string | null; sessions: SessionRow[]; passkeys: PasskeyRow[] };

const button = 'rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800';

/** A short device description from a User-Agent string. */
function device(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Firefox\/|Edg\/|Chrome\/|Safari\//.exec(userAgent)?.[0]?.replace('/', '').replace('Edg', 'Edge') ?? 'Browser';
  const system = /Windows|Mac OS X|Android|iPhone|iPad|Linux/.exec(userAgent)?.[0]?.replace('Mac OS X', 'macOS') ?? 'unknown system';
  return `${browser} on ${system}`;
}

export function AccountActions({ currentSessionId, sessions, passkeys }: Props) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  const act = async (work: () => Promise<string | null>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage(await work());
    } catch {
      setMessage('Runpad could not be reached. Try again.');
    } finally {
      setBusy(false);
    }
  };

  const signOutDevice = (id: string) =>
    act(async () => {
      const response = await fetch('/api/account/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: id }) });
      if (!response.ok) return failureWords(response, 'That device could not be signed out.');
      router.refresh();
      return 'The device was signed out.';
    });

  const signOut = (everywhere: boolean) =>
    act(async () => {
      if (everywhere) {
        const revoked = await authClient.revokeSessions();
        if (revoked.error) return authErrorText(revoked.error, 'Signing out everywhere failed.');
      }
      await authClient.signOut();
      router.replace(signInPath({ notice: 'signed-out' }, window.location.origin));
      router.refresh();
      return null;
    });

  const addPasskey = () =>
    act(async () => {
      const result = await authClient.passkey.addPasskey({ name: 'Passkey' });
      if (result?.error) return authErrorText(result.error, 'The passkey could not be added.');
      router.refresh();
      return 'Passkey added: you can now sign in with it.';
    });

  const deleteAccount = () =>
    act(async () => {
      if (!window.confirm('Delete your account, every conversation, file and share? This cannot be undone.')) return null;
      const response = await fetch('/api/account', { method: 'DELETE' });
      if (!response.ok) return failureWords(response, 'The account could not be deleted.');
      router.replace(signInPath({ notice: 'deleted' }, window.location.origin));
      router.refresh();
      return null;
    });

  return (
    <div className="mt-8 flex flex-col gap-8">
      <section aria-labelledby="devices">
        <h2 id="devices" className="text-lg font-semibold">
          Signed-in devices
        </h2>
        <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="sessions">
          {sessions.map((session) => (
            <li key={session.id} className="flex items-center gap-3 py-2 text-sm" data-session-id={session.id}>
              <span className="flex-1">
                {device(session.userAgent)}
                {session.id === currentSessionId ? ' (this device)' : ''}
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">Signed in {new Date(session.createdAt).toLocaleString()}</span>
              </span>
              {session.id !== currentSessionId && (
                <button type="button" className={button} disabled={busy || !hydrated} onClick={() => signOutDevice(session.id)}>
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
        <div className="mt-3 flex gap-2">
          <button type="button" className={button} disabled={busy || !hydrated} onClick={() => signOut(false)}>
            Sign out
          </button>
          <button type="button" className={button} disabled={busy || !hydrated} onClick={() => signOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </section>
      <section aria-labelledby="passkeys">
        <h2 id="passkeys" className="text-lg font-semibold">
          Passkeys
        </h2>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300" data-testid="passkey-count">
          {passkeys.length === 0 ? 'No passkeys yet.' : `${passkeys.length} passkey${passkeys.length === 1 ? '' : 's'}.`}
        </p>
        <button type="button" className={`${button} mt-2`} disabled={busy || !hydrated} onClick={addPasskey}>
          Add a passkey
        </button>
      </section>
      <section aria-labelledby="data">
        <h2 id="data" className="text-lg font-semibold">
          Your data
        </h2>
        <div className="mt-2 flex gap-2">
          <a className={button} href="/api/account/export" download>
            Export everything
          </a>
          <button type="button" className={`${button} text-red-700 dark:text-red-400`} disabled={busy || !hydrated} onClick={deleteAccount}>
            Delete account
          </button>
        </div>
      </section>
      {message && (
        <p role="status" className="text-sm">
          {message}
        </p>
      )}
    </div>
  );
}
