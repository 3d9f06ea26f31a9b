'use client';
/** Sets a new password with a reset link's token (better-auth's /reset-password: used once; every device is signed out). */
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { signInErrorText } from '@/lib/auth/sign-in-errors';
import { authClient, authErrorText } from './auth-client';
import { MIN_PASSWORD_LENGTH } from './password-form';

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, setState] = useState<{ kind: 'idle' | 'busy' | 'done' } | { kind: 'failed'; message: string }>({ kind: 'idle' });
  const hydrated = useHydrated();

  const submit = async (form: HTMLFormElement) => {
    const newPassword = String(new FormData(form).get('password') ?? '');
    setState({ kind: 'busy' });
    const result = await authClient.resetPassword({ newPassword, token }).catch(() => null);
    if (!result) setState({ kind: 'failed', message: 'Runpad could not be reached. Try again.' });
    else if (result.error) setState({ kind: 'failed', message: result.error.code === 'INVALID_TOKEN' ? signInErrorText('invalid_token') : authErrorText(result.error, 'The password could not be set. Ask for a new link.') });
    else setState({ kind: 'done' });
  };

  if (state.kind === 'done') {
    return (
      <p role="status" className="mt-4 text-sm">
        Your password is set, and every device that was signed in is signed out. Sign in with your new password.
      </p>
    );
  }
  return (
    <form
      className="mt-4 flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <label className="text-sm font-medium">
        New password
        <input name="password" type="password" required minLength={MIN_PASSWORD_LENGTH} autoComplete="new-password" className="mt-1 w-full rounded-lg border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950" />
      </label>
      <button type="submit" disabled={state.kind === 'busy' || !hydrated} className="rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        Set password
      </button>
      {state.kind === 'failed' && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.message}
        </p>
      )}
    </form>
  );
}
