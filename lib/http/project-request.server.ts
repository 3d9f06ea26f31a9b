/**
 * The start of every route under /api/projects/<id>: who asks (signed in, or refused), the
 * project's id (malformed: the same 404 as one that names nothing) and the one authorization rule
 * asked for `action` (lib/access/authorize.server.ts). `notFound` names the 404 a route answers
 * (a file's routes answer `file:not_found` for a project the person may not read).
 */
import 'server-only';
import { authorize, type Action } from '@/lib/access/authorize.server';
import type { Identity } from '@/lib/auth/current-user.server';
import { getDb, type Db } from '@/lib/db/client.server';
import { AppError, isAppError } from '@/lib/errors.server';
import { conversationIdSchema, idOrNotFound, requireUser } from './session.server';

export async function projectRequest(projectId: string, action: Action, notFound: 'project:not_found' | 'file:not_found' = 'project:not_found'): Promise<{ user: Identity; id: string; db: Db }> {
  const user = await requireUser();
  const id = idOrNotFound(conversationIdSchema, projectId, notFound, 'project id');
  const db = await getDb();
  await authorize(db, user, action, { project: id }).catch((error: unknown) => {
    throw notFound !== 'project:not_found' && isAppError(error) && error.status === 404 ? new AppError(notFound, { reason: 'project not readable' }) : error;
  });
  return { user, id, db };
}
