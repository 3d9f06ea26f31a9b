import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AdminPeople } from '@/components/account/admin-people';
import { AdminUsage } from '@/components/account/admin-usage';
import { AdminAccess } from '@/components/admin/admin-access.server';
import { AdminAudit } from '@/components/admin/admin-audit.server';
import { AdminGroups } from '@/components/admin/admin-groups.server';
import { ShareAudit } from '@/components/admin/share-audit.server';
import { resolveIdentity } from '@/lib/auth/current-user.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { listPeople } from '@/lib/db/queries/users.server';
import { formatBytes, formatCount } from '@/lib/format';
import { withPageErrors } from '@/lib/http/page-errors.server';
import { redirectPath, signInPath } from '@/lib/http/redirect-target';

export const dynamic = 'force-dynamic';

/** Admins (RUNPAD_ADMIN_EMAILS, or the admin role): everyone with their usage, block or limits; invitations, approvals, roles, password links; what admins did (components/admin). */
async function AdminPage() {
  const result = await resolveIdentity();
  if (!result.ok || result.identity.kind !== 'account') redirect(signInPath({ next: '/admin' }));
  if (!result.identity.isAdmin) redirect(redirectPath('/account'));
  const { limits } = getConfig();
  const people = await listPeople(await getDb());
  return (
    <main className="mx-auto max-w-5xl px-6 py-12">
      <p>
        <Link href="/account" className="text-sm text-blue-700 underline dark:text-blue-300">
          ← Your account
        </Link>
      </p>
      <h1 className="mt-4 text-2xl font-semibold">People</h1>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
        Defaults: {formatCount(limits.modelRequestsPerMinute)} model requests a minute, {formatCount(limits.modelRequestsPerDay)} a day, {limits.tokensPerDay === null ? 'no token budget' : `${formatCount(limits.tokensPerDay)} tokens a day`}, {formatBytes(limits.guestStorageBytes)} stored. An empty field means the default.
      </p>
      <AdminPeople
        people={people.map((p) => ({
          id: p.id,
          email: p.email,
          modelRequests: p.modelRequests,
          storedBytes: p.storedBytes,
          blocked: Boolean(p.blockedAt),
          modelRequestsPerMinute: p.modelRequestsPerMinute,
          modelRequestsPerDay: p.modelRequestsPerDay,
          storageBytes: p.storageBytes,
          tokensPerDay: p.tokensPerDay,
        }))}
      />
      <AdminUsage />
      <AdminAccess currentUserId={result.identity.userId} />
      <AdminGroups />
      <AdminAudit />
      <ShareAudit />
    </main>
  );
}

export default withPageErrors('admin', AdminPage);
