import { z } from 'zod';
import { getDb } from '@/lib/db/client.server';
import { listConversations } from '@/lib/db/queries/conversations.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { requireUser } from '@/lib/http/session.server';
import { liveStreamId } from '@/lib/streams/app-streams.server';

export const runtime = 'nodejs';

/** `<updatedAt ISO>|<conversation uuid>`, as listConversations hands it out. */
const cursorSchema = z
  .string()
  .max(100)
  .transform((value, ctx) => {
    const [at, id, ...rest] = value.split('|');
    if (rest.length > 0 || !z.iso.datetime({ offset: true }).safeParse(at).success || !z.uuid().safeParse(id).success) {
      ctx.addIssue({ code: 'custom', message: 'not a cursor this list handed out' });
      return z.NEVER;
    }
    return value;
  });

/** Of these conversations, those whose answer is being written now (or may be: the registry cannot be asked). */
async function answering(ids: readonly string[]): Promise<ReadonlySet<string>> {
  const live = await Promise.all(ids.map(async (id) => ((await liveStreamId(id)) === null ? null : id)));
  return new Set(live.filter((id) => id !== null));
}

/**
 * The guest's conversations, newest first; `?cursor=` for the next page. One whose first answer
 * failed and that holds nothing else is not listed (docs/DECISIONS.md, 2026-12-07).
 */
export const GET = route(async ({ request }) => {
  const user = await requireUser();
  const raw = new URL(request.url).searchParams.get('cursor');
  const cursor = raw === null ? null : cursorSchema.safeParse(raw);
  if (cursor && !cursor.success) throw new AppError('request:invalid', { message: 'The list cursor is not valid; reload the list.', reason: 'malformed list cursor' });
  const page = await listConversations(await getDb(), user.userId, { limit: 30, cursor: cursor?.data ?? null, answering });
  return Response.json(page);
});
