import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { SignInPanel } from '@/components/account/sign-in-panel';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { getConfig } from '@/lib/config.server';
import { signInErrorText } from '@/lib/auth/sign-in-errors';
import { requestOrigin } from '@/lib/request/origin.server';
import { redirectPath } from '@/lib/http/redirect-target';
import { INVITATION_INVALID } from '@/lib/auth/admission.server';
import { getDb } from '@/lib/db/client.server';
import { findInvitation } from '@/lib/db/queries/invitations.server';

export const dynamic = 'force-dynamic';

/** Where people sign in (and where RUNPAD_ACCESS=accounts|invite sends everyone without an account). */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const config = getConfig();
  const identity = await resolveIdentity();
  if (identity.ok && identity.identity.kind === 'account') redirect(redirectPath('/account'));
  // Decided here, on the server: the page hands the browser only a normalised same-origin path.
  const next = redirectPath(params.next, requestOrigin(await headers(), config));
  const token = typeof params.invitation === 'string' && /^[A-Za-z0-9_-]{43}$/.test(params.invitation) ? params.invitation : null;
  const invited = token && config.access.passwordSignIn ? await findInvitation(await getDb(), token) : null;
  const invitation = token && invited ? { token, email: invited.email } : null;
  const invitationRefusal = 'invitation' in params && !invitation ? (config.access.passwordSignIn ? INVITATION_INVALID : 'Accounts are made by signing in with the provider here: sign in with the email you were invited at.') : null;
  const error = invitationRefusal ?? (typeof params.error === 'string' ? signInErrorText(params.error) : !identity.ok && identity.refusal.status === 403 ? identity.refusal.message : null);
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-6 py-16">
      <h1 className="text-2xl font-semibold">Sign in to Runpad</h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
        {config.access.mode === 'open'
          ? 'Your conversations, files and shares as a guest move to your account, and every device you sign in on sees them.'
          : 'This Runpad is for people with an account.'}
      </p>
      {params['signed-out'] === '1' && (
        <p role="status" className="mt-3 text-sm font-medium">
          You are signed out.
        </p>
      )}
      {params.verified === '1' && !error && (
        <p role="status" className="mt-3 text-sm font-medium">
          Your email is confirmed. Sign in with your password.
        </p>
      )}
      {params.deleted === '1' && (
        <p role="status" className="mt-3 text-sm font-medium">
          Your account and everything in it were deleted.
        </p>
      )}
      <SignInPanel providerName={config.access.oidc?.name ?? null} next={next} error={error} passwordSignIn={config.access.passwordSignIn} resetByMail={config.email !== null} invitation={invitation} />
      <p className="mt-6 text-xs text-zinc-600 dark:text-zinc-400">A passkey signs you in once you have added it on your account page after signing in.</p>
    </main>
  );
}
