import { authorize } from '@/lib/access/authorize.server';
import { granteeSchema, resolveGrantee } from '@/lib/access/grantee.server';
import { addReader } from '@/lib/access/projects.server';
import { getDb } from '@/lib/db/client.server';
import { listConversationReaders } from '@/lib/db/queries/projects.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };
const conversationId = (params: Params) => idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');

/** Who reads the conversation besides its author (the author only). */
export const GET = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = conversationId(params);
  const db = await getDb();
  await authorize(db, user, 'manage_members', { conversation: id });
  return Response.json({ readers: await listConversationReaders(db, id) }, { headers: { 'cache-control': 'no-store' } });
});

/** Shares the conversation to read with `{email | groupId}` → 201 `{id}`: at /c/<id>, after sign-in. */
export const POST = route<Params>(
  async ({ request, params }) => {
    const user = await requireUser();
    const id = conversationId(params);
    const db = await getDb();
    await authorize(db, user, 'manage_members', { conversation: id });
    const named = await readJson(request, granteeSchema, 16_384);
    return Response.json({ id: await addReader(db, user.userId, id, await resolveGrantee(db, named)) }, { status: 201 });
  },
  { body: 'json' },
);
