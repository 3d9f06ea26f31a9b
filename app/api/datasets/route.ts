import { getDb } from '@/lib/db/client.server';
import { listAccountFiles } from '@/lib/files/file-queries.server';
import { route } from '@/lib/http/route.server';
import { requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

/** "My datasets": the person's files in their account, across their conversations, once per SHA-256 (lib/files/datasets-library.ts). */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json({ files: await listAccountFiles(await getDb(), user.userId) });
});
