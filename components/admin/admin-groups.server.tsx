/** The admin page's groups (server part): every group with its members; the writes are app/api/admin/groups. */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { listGroupsWithMembers } from '@/lib/db/queries/groups.server';
import { GroupsAdmin } from './groups-admin';

export async function AdminGroups() {
  return <GroupsAdmin groups={await listGroupsWithMembers(await getDb())} claim={getConfig().access.oidc?.groupsClaim ?? null} />;
}
