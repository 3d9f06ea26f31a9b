import { z } from 'zod';
import { authorize } from '@/lib/access/authorize.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { activeShareOf, createOrUpdateShare, revokeShare, type ShareAudience } from '@/lib/db/queries/shares.server';
import { AppError } from '@/lib/errors.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { conversationIdSchema, idOrNotFound, requireUser } from '@/lib/http/session.server';

export const runtime = 'nodejs';

type Params = { id: string };

const shareSchema = z.strictObject({ audience: z.enum(['anyone', 'signed_in']).optional() });

/** The links this instance makes (RUNPAD_PUBLIC_SHARES) and the conversation's active link: `{links, link: {id, path, audience} | null}`. */
export const GET = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  await authorize(db, user, 'manage_members', { conversation: id });
  const links = getConfig().publicShares;
  const active = links === 'off' ? null : await activeShareOf(db, id);
  return Response.json({ links, link: active && { id: active.id, path: `/s/${active.id}`, audience: active.audience } }, { headers: { 'cache-control': 'no-store' } });
});

/**
 * Shares (or updates the shared snapshot of) the conversation as it is now; the body may name the
 * link's audience `{audience: "anyone" | "signed_in"}` (none: the active link's, or for a new link
 * the widest the operator allows).
 * Refused in words while the operator turned links off (RUNPAD_PUBLIC_SHARES=off), or links for
 * anyone (RUNPAD_PUBLIC_SHARES=signed-in).
 */
export const POST = route<Params>(async ({ request, params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  const db = await getDb();
  await authorize(db, user, 'manage_members', { conversation: id });
  // A body is optional (Share with no choice made); one sent is JSON of the schema's shape.
  const body = request.headers.get('content-type') === null ? {} : await readJson(request, shareSchema, 4_096);
  const links = getConfig().publicShares;
  if (links === 'off') throw new AppError('share:links_off', { reason: 'links off' });
  const audience: ShareAudience = body.audience ?? (links === 'signed-in' ? 'signed_in' : ((await activeShareOf(db, id))?.audience ?? 'anyone'));
  if (links === 'signed-in' && audience === 'anyone') throw new AppError('share:anyone_links_off', { reason: 'links for anyone off' });
  const shareId = await createOrUpdateShare(db, user.userId, id, audience);
  if (!shareId) throw new AppError('conversation:not_found', { reason: 'conversation not owned' });
  return Response.json({ id: shareId, path: `/s/${shareId}`, audience });
});

/** Revokes the link: it 404s from then on. */
export const DELETE = route<Params>(async ({ params }) => {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, params.id, 'conversation:not_found', 'conversation id');
  await authorize(await getDb(), user, 'manage_members', { conversation: id });
  if (!(await revokeShare(await getDb(), user.userId, id))) throw new AppError('share:not_found', { reason: 'no active share of an owned conversation' });
  return new Response(null, { status: 204 });
});
