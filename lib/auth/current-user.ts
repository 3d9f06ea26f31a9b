/**
 * The guest identity of the current request, from the signed session cookie that proxy.ts
 * issues on a browser's first visit. Null when the cookie is missing or tampered with.
 */
import 'server-only';
import { cookies } from 'next/headers';
import { getDb } from '@/lib/db/client';
import { ensureUser } from '@/lib/db/queries/users';
import { SESSION_COOKIE, verifySession } from './session';
import { getAuthSecret } from './secret';

export async function currentUserId(): Promise<string | null> {
  const value = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!value) return null;
  const userId = verifySession(value, getAuthSecret());
  if (!userId) return null;
  await ensureUser(await getDb(), userId);
  return userId;
}
