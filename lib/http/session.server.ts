/**
 * Route-handler helpers: the current person, or the AppError (lib/errors.server.ts) that refuses the
 * request in words (sign in, blocked, too many new guests), thrown for route() to answer; and id
 * checks. Anything malformed is refused; nothing is changed.
 */
import 'server-only';
import { z } from 'zod';
import type { Subject } from '@/lib/access/authorize.server';
import { resolveIdentity, type Identity } from '@/lib/auth/current-user.server';
import { AppError, type ErrorCode } from '@/lib/errors.server';

export const conversationIdSchema = z.uuid();
export const shareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

/** The person asking; throws the refusal when there is none. */
export async function requireUser(): Promise<Identity> {
  const result = await resolveIdentity();
  if (!result.ok) throw result.refusal;
  return result.identity;
}

/** Who asks, as the authorization rule names them: the person, or null when there is none (no session, not admitted). */
export async function askingSubject(): Promise<Subject> {
  const result = await resolveIdentity();
  return result.ok ? { userId: result.identity.userId, kind: result.identity.kind } : null;
}

/** Like requireUser, for the pages only people with an account use (sessions, export, admin). */
export async function requireAccount(): Promise<Identity> {
  const user = await requireUser();
  if (user.kind !== 'account') throw new AppError('session:account_required', { reason: 'account required' });
  return user;
}

export async function requireAdmin(): Promise<Identity> {
  const user = await requireAccount();
  if (!user.isAdmin) throw new AppError('access:admin_only', { reason: 'not an admin' });
  return user;
}

type NotFoundCode = Extract<ErrorCode, `${string}:not_found`>;

/**
 * The id from a URL when it is well formed; else the same 404 as an id that names nothing (the
 * route's own code), so a malformed id tells a prober nothing more.
 */
export function idOrNotFound<T>(schema: z.ZodType<T>, value: unknown, code: NotFoundCode, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError(code, { reason: `malformed ${what}` });
  return parsed.data;
}
