/**
 * The guest identity of the current request, from the signed session cookie that proxy.ts
 * issues on a browser's first visit. Null when the cookie is missing or tampered with.
 */
import 'server-only';
import { cookies, headers } from 'next/headers';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { ensureUser } from '@/lib/db/queries/users';
import { isSecureOrigin, requestOrigin } from '@/lib/http/origin';
import { sessionCookieName, verifySession } from './session';
import { getAuthSecret } from './secret';

/** Users this process has already written: the row is only ever added, so one write each suffices. */
const ensuredUsers = new Set<string>();
const MAX_REMEMBERED_USERS = 10_000;

/** The verified guest id, without touching the database (for logs). */
export async function sessionGuestId(): Promise<string | null> {
  const config = getConfig();
  const origin = requestOrigin(await headers(), config);
  const value = (await cookies()).get(sessionCookieName(isSecureOrigin(origin)))?.value;
  return value ? verifySession(value, getAuthSecret()) : null;
}

export async function currentUserId(): Promise<string | null> {
  const userId = await sessionGuestId();
  if (!userId) return null;
  if (!ensuredUsers.has(userId)) {
    await ensureUser(await getDb(), userId);
    if (ensuredUsers.size >= MAX_REMEMBERED_USERS) ensuredUsers.clear();
    ensuredUsers.add(userId);
  }
  return userId;
}
