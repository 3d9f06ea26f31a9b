/**
 * The admin page's audit list: what admins did to accounts, invitations and people, newest first
 * (lib/db/queries/admin-actions.server.ts), refused password links included. Read-only.
 */
import 'server-only';
import { getDb } from '@/lib/db/client.server';
import { listAdminActions } from '@/lib/db/queries/admin-actions.server';

export async function AdminAudit() {
  const actions = await listAdminActions(await getDb());
  return (
    <section aria-labelledby="audit-heading" className="mt-10">
      <h2 id="audit-heading" className="text-lg font-semibold">
        What admins did
      </h2>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">Every admin action on an account, newest first (the last {actions.length === 200 ? '200' : 'ones'}).</p>
      {actions.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">Nothing yet.</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm" data-testid="admin-actions">
          <thead>
            <tr className="border-b border-zinc-300 dark:border-zinc-700">
              <th className="py-2">When (UTC)</th>
              <th>Admin</th>
              <th>Action</th>
              <th>Account</th>
            </tr>
          </thead>
          <tbody>
            {actions.map((action) => (
              <tr key={action.id} className="border-b border-zinc-200 dark:border-zinc-800" data-action={`${action.adminEmail} ${action.action} ${action.accountEmail}`}>
                <td className="py-1.5">{action.at.toISOString().slice(0, 16).replace('T', ' ')}</td>
                <td>{action.adminEmail}</td>
                <td>{action.action}</td>
                <td>{action.accountEmail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
