'use client';
/**
 * Sign in with an email and a password (or make an account, or ask for a reset link), with the
 * configured OpenID Connect provider, or with a passkey already added to an account. An invitation
 * link (/sign-in?invitation=…) opens on making the invited account, its email fixed.
 */
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { redirectPath, signInPath } from '@/lib/http/redirect-target';
import { authClient, authErrorText } from './auth-client';
import { PasswordForm } from './password-form';

type Props = {
  providerName: string | null;
  /** Where to go once signed in, a path the server already passed through `redirectPath`. */
  next: string;
  error: string | null;
  /** Email-and-password sign-in is on (RUNPAD_PASSWORD_SIGN_IN). */
  passwordSignIn: boolean;
  /** "Forgot your password?" can mail a link (a mail server is configured). */
  resetByMail: boolean;
  /** An invitation this page was opened with: its token and the email it is for. */
  invitation: { token: string; email: string } | null;
};

const secondary = 'rounded-lg border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800';

export function SignInPanel({ providerName, next, error, passwordSignIn, resetByMail, invitation }: Props) {
  const [message, setMessage] = useState<string | null>(error);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  const withProvider = async () => {
    setBusy(true);
    setMessage(null);
    const result = await authClient.signIn.social({ provider: 'oidc', callbackURL: redirectPath(next, window.location.origin), errorCallbackURL: signInPath() });
    if (result.error) {
      setMessage(authErrorText(result.error, 'Signing in with the provider failed. Try again.'));
      setBusy(false);
    }
  };

  const withPasskey = async () => {
    setBusy(true);
    setMessage(null);
    const result = await authClient.signIn.passkey();
    if (result?.error) {
      setMessage(authErrorText(result.error, 'Signing in with a passkey failed. Try again.'));
      setBusy(false);
      return;
    }
    window.location.assign(redirectPath(next, window.location.origin));
  };

  return (
    <div className="mt-6 flex flex-col gap-3">
      {passwordSignIn && <PasswordForm next={next} resetByMail={resetByMail} invitation={invitation} busy={busy} setBusy={setBusy} setMessage={setMessage} />}
      {providerName && (
        <button type="button" disabled={busy || !hydrated} onClick={withProvider} className="rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60">
          Sign in with {providerName}
        </button>
      )}
      {!invitation && (
        <button type="button" disabled={busy || !hydrated} onClick={withPasskey} className={secondary}>
          Sign in with a passkey
        </button>
      )}
      {message && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  );
}
