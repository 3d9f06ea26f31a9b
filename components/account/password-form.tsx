'use client';
/**
 * The sign-in page's email-and-password part (better-auth's own endpoints): sign in, make an
 * account (with an invitation's token when the page was opened from one), or ask for a link that
 * sets a new password (only when the server can mail it).
 */
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { z } from 'zod';
import { failureWords, readJsonAs } from '@/lib/http/error-body.client';
import { redirectPath } from '@/lib/http/redirect-target';
import { authClient, authErrorText } from './auth-client';

type Mode = 'sign-in' | 'sign-up' | 'forgot';
type Props = {
  next: string;
  resetByMail: boolean;
  invitation: { token: string; email: string } | null;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  setMessage: (message: string | null) => void;
};

const input = 'mt-1 w-full rounded-lg border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950';
const primary = 'rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60';
const link = 'text-sm text-blue-700 underline disabled:opacity-60 dark:text-blue-300';
export const MIN_PASSWORD_LENGTH = 8;

export function PasswordForm({ next, resetByMail, invitation, busy, setBusy, setMessage }: Props) {
  const [mode, setMode] = useState<Mode>(invitation ? 'sign-up' : 'sign-in');
  const [notice, setNotice] = useState<string | null>(null);
  const hydrated = useHydrated();

  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    const email = invitation?.email ?? field('email');
    setBusy(true);
    setMessage(null);
    setNotice(null);
    try {
      if (mode === 'forgot') {
        const result = await authClient.requestPasswordReset({ email, redirectTo: '/reset-password' });
        if (result.error) setMessage(authErrorText(result.error, 'The link could not be sent. Try again.'));
        else setNotice(`If ${email} has an account here, a link to set a new password is on its way to it.`);
        return;
      }
      const password = String(data.get('password') ?? '');
      if (mode === 'sign-up') {
        // better-auth's sign-up endpoint, with the invitation's token (lib/auth/admission.server.ts reads it).
        const response = await fetch('/api/auth/sign-up/email', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // callbackURL: where the link that verifies the email (mailed when the server can) leads.
          body: JSON.stringify({ name: field('name') || email.split('@')[0], email, password, callbackURL: '/sign-in?verified=1', ...(invitation ? { invitation: invitation.token } : {}) }),
        }).catch(() => null);
        if (!response?.ok) {
          setMessage(await signUpFailure(response));
          return;
        }
      } else {
        const result = await authClient.signIn.email({ email, password });
        if (result.error) {
          setMessage(authErrorText(result.error, 'Signing in failed. Try again.'));
          return;
        }
      }
      window.location.assign(redirectPath(next, window.location.origin));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-3"
      aria-label={mode === 'sign-up' ? 'Create an account' : mode === 'forgot' ? 'Set a new password' : 'Sign in with email'}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      {invitation && (
        <p className="text-sm" data-testid="invitation">
          You are invited as <strong>{invitation.email}</strong>. Choose your name and a password.
        </p>
      )}
      {mode === 'sign-up' && (
        <label className="text-sm font-medium">
          Name
          <input name="name" autoComplete="name" className={input} />
        </label>
      )}
      {!invitation && (
        <label className="text-sm font-medium">
          Email
          <input name="email" type="email" required autoComplete="email" className={input} />
        </label>
      )}
      {mode !== 'forgot' && (
        <label className="text-sm font-medium">
          Password
          <input name="password" type="password" required minLength={mode === 'sign-up' ? MIN_PASSWORD_LENGTH : undefined} autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'} className={input} />
        </label>
      )}
      <button type="submit" disabled={busy || !hydrated} className={primary}>
        {mode === 'sign-up' ? 'Create account' : mode === 'forgot' ? 'Send me a link' : 'Sign in'}
      </button>
      {notice && (
        <p role="status" className="text-sm">
          {notice}
        </p>
      )}
      {!invitation && (
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          {mode !== 'sign-in' && (
            <button type="button" className={link} disabled={busy || !hydrated} onClick={() => setMode('sign-in')}>
              I have an account
            </button>
          )}
          {mode !== 'sign-up' && (
            <button type="button" className={link} disabled={busy || !hydrated} onClick={() => setMode('sign-up')}>
              Create an account
            </button>
          )}
          {resetByMail && mode === 'sign-in' && (
            <button type="button" className={link} disabled={busy || !hydrated} onClick={() => setMode('forgot')}>
              Forgot your password?
            </button>
          )}
        </p>
      )}
    </form>
  );
}

const authFailureSchema = z.looseObject({ message: z.string().min(1) });

/** better-auth answers `{ message, code }` (a pending sign-up's words come from lib/auth/access.server.ts); route() answers `{ error }`. */
async function signUpFailure(response: Response | null): Promise<string> {
  if (!response) return 'Runpad could not be reached. Try again.';
  const fallback = 'The account could not be made. Try again.';
  const copy = response.clone();
  return (await readJsonAs(response, authFailureSchema))?.message ?? failureWords(copy, fallback);
}
