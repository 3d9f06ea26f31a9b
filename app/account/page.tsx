import { desc, eq } from 'drizzle-orm';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AccountActions } from '@/components/account/account-actions';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { getDb } from '@/lib/db/client.server';
import { authPasskeys, authSessions } from '@/lib/db/schema.server';
import { formatBytes } from '@/lib/format';
import { withPageErrors } from '@/lib/http/page-errors.server';
import { signInPath } from '@/lib/http/redirect-target';

export const dynamic = 'force-dynamic';

/** The signed-in person's account: signed-in devices, passkeys, export, deletion. Guests go to sign in. */
async function AccountPage() {
  const result = await resolveIdentity();
  if (!result.ok || result.identity.kind !== 'account') redirect(signInPath({ next: '/account' }));
  const { identity } = result;
  const db = await getDb();
  const sessions = await db
    .select({ id: authSessions.id, userAgent: authSessions.userAgent, createdAt: authSessions.createdAt, updatedAt: authSessions.updatedAt })
    .from(authSessions)
    .where(eq(authSessions.userId, identity.userId))
    .orderBy(desc(authSessions.updatedAt));
  const passkeys = await db.select({ id: authPasskeys.id, name: authPasskeys.name, createdAt: authPasskeys.createdAt }).from(authPasskeys).where(eq(authPasskeys.userId, identity.userId));
  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <p>
        <Link href="/" className="text-sm text-blue-700 underline dark:text-blue-300">
          ← Back to Runpad
        </Link>
      </p>
      <h1 className="mt-4 text-2xl font-semibold">Your account</h1>
      <p className="mt-2 text-sm" data-testid="account-email">
        Signed in as {identity.email}
        {identity.isAdmin && (
          <>
            {' · '}
            <Link href="/admin" className="text-blue-700 underline dark:text-blue-300">
              Admin
            </Link>
          </>
        )}
      </p>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        {identity.person.modelRequests} model requests · {formatBytes(identity.person.storedBytes)} stored
      </p>
      <AccountActions
        currentSessionId={identity.sessionId}
        sessions={sessions.map((s) => ({ id: s.id, userAgent: s.userAgent, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString() }))}
        passkeys={passkeys.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt?.toISOString() ?? null }))}
      />
    </main>
  );
}

export default withPageErrors('account', AccountPage);
