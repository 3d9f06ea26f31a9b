import Link from 'next/link';
import { ResetPasswordForm } from '@/components/account/reset-password-form';
import { signInErrorText } from '@/lib/auth/sign-in-errors';

export const dynamic = 'force-dynamic';

/** Where a password-reset link leads (an admin's, or one mailed by "Forgot your password?"): set a new password. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(params.token) ? params.token : null;
  const error = typeof params.error === 'string' ? signInErrorText(params.error) : token ? null : 'This page needs the link you were given to set a password. Ask for a new one if it does not work.';
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-6 py-16">
      <h1 className="text-2xl font-semibold">Set a new password</h1>
      {token && !error ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <p className="mt-6 text-sm">
        <Link href="/sign-in" className="text-blue-700 underline dark:text-blue-300">
          Sign in
        </Link>
      </p>
    </main>
  );
}
