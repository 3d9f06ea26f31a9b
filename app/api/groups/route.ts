import { getDb } from '@/lib/db/client.server';
import { listGroupChoices } from '@/lib/db/queries/groups.server';
import { route } from '@/lib/http/route.server';
import { requireAccount } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** The groups a conversation or a project can be shared with (`{groups: [{id, name}]}`), to people with an account. */
export const GET = route(async () => {
  await requireAccount();
  return Response.json({ groups: await listGroupChoices(await getDb()) }, { headers: { 'cache-control': 'no-store' } });
});
