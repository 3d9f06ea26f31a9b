import { getDb } from '@/lib/db/client';
import { listConversations } from '@/lib/db/queries/conversations';
import { requireUser } from '@/lib/http/session';

export const runtime = 'nodejs';

/** The guest's conversations, newest first; `?cursor=` for the next page. */
export async function GET(request: Request) {
  const user = await requireUser();
  if (!user.ok) return user.response;
  const cursor = new URL(request.url).searchParams.get('cursor');
  const page = await listConversations(await getDb(), user.userId, { limit: 30, cursor });
  return Response.json(page);
}
