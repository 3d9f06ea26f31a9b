import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { getAuth } from '@/lib/auth/auth.server';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { authSessions } from '@/lib/db/schema.server';
import { AppError } from '@/lib/errors.server';
import { linkOrigin } from '@/lib/http/link-origin.server';
import { readJson } from '@/lib/http/read-json.server';
import { route } from '@/lib/http/route.server';
import { requireAccount } from '@/lib/http/session.server';

export const runtime = 'nodejs';

const revokeSchema = z.object({ sessionId: z.uuid() });

/** Signs one of the account's devices out (by session id; the token never leaves the server). */
export const POST = route(
  async ({ request }) => {
    const body = await readJson(request, revokeSchema);
    const user = await requireAccount();
    const db = await getDb();
    const [session] = await db
      .select({ token: authSessions.token })
      .from(authSessions)
      .where(and(eq(authSessions.id, body.sessionId), eq(authSessions.userId, user.userId)));
    if (!session) throw new AppError('device:not_found', { reason: 'session not the account’s' });
    await (await getAuth(linkOrigin(request.headers, getConfig()))).api.revokeSession({ headers: request.headers, body: { token: session.token } });
    return Response.json({ revoked: true });
  },
  { body: 'json' },
);
