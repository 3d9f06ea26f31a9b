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

/** Users this process has already written: the row is only ever added, so one write each suffices. */
const ensuredUsers = new Set<string>();
const MAX_REMEMBERED_USERS = 10_000;

export async function currentUserId(): Promise<string | null> {
  const value = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!value) return null;
  const userId = verifySession(value, getAuthSecret());
  if (!userId) return null;
  if (!ensuredUsers.has(userId)) {
    await ensureUser(await getDb(), userId);
    if (ensuredUsers.size >= MAX_REMEMBERED_USERS) ensuredUsers.clear();
    ensuredUsers.add(userId);
  }
  return userId;
}
