/**
 * Route-handler helpers: the current guest (401 without a valid session cookie) and id checks.
 * Anything malformed is a 4xx with a message; nothing is changed.
 */
import 'server-only';
import { z } from 'zod';
import { currentUserId } from '@/lib/auth/current-user';
import { jsonError } from './errors';

export const conversationIdSchema = z.uuid();
export const shareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

type Guarded = { ok: true; userId: string } | { ok: false; response: Response };

export async function requireUser(): Promise<Guarded> {
  const userId = await currentUserId();
  return userId ? { ok: true, userId } : { ok: false, response: jsonError(401, 'Your session cookie is missing or invalid; reload the page.') };
}
