/**
 * Route-handler helpers: the current person (a refusal in words when there is none: sign in,
 * blocked, too many new guests) and id checks. Anything malformed is a 4xx with a message;
 * nothing is changed.
 */
import 'server-only';
import { z } from 'zod';
import { resolveIdentity, type Identity } from '@/lib/auth/current-user';
import { jsonError, tooManyRequests } from './errors';

export const conversationIdSchema = z.uuid();
export const shareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

type Guarded = { ok: true; userId: string; identity: Identity } | { ok: false; response: Response };

export async function requireUser(): Promise<Guarded> {
  const result = await resolveIdentity();
  if (result.ok) return { ok: true, userId: result.identity.userId, identity: result.identity };
  if (result.status === 429) return { ok: false, response: tooManyRequests(result.message, result.retryAfterSeconds ?? 60, result.reason) };
  return { ok: false, response: jsonError(result.status, result.message, { reason: result.reason, details: { cause: result.reason.replace(/ /g, '-') } }) };
}

/** Like requireUser, for the pages only people with an account use (sessions, export, admin). */
export async function requireAccount(): Promise<Guarded> {
  const user = await requireUser();
  if (user.ok && user.identity.kind !== 'account') return { ok: false, response: jsonError(401, 'Sign in first.', { reason: 'account required' }) };
  return user;
}

export async function requireAdmin(): Promise<Guarded> {
  const user = await requireAccount();
  if (user.ok && !user.identity.isAdmin) return { ok: false, response: jsonError(403, 'Only this Runpad’s admins may do that.', { reason: 'not an admin' }) };
  return user;
}
