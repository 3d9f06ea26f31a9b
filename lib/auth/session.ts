/**
 * The guest session cookie: `v1.<user uuid>.<HMAC-SHA256>` (base64url). Anything malformed,
 * tampered with or signed with another secret verifies to null.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'runpad_session';
export const SESSION_MAX_AGE_S = 365 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function signSession(userId: string, secret: string): string {
  const payload = `v1.${userId}`;
  return `${payload}.${signature(payload, secret)}`;
}

export function verifySession(value: string, secret: string): string | null {
  const parts = value.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1' || !UUID.test(parts[1])) return null;
  const expected = Buffer.from(signature(`v1.${parts[1]}`, secret));
  const given = Buffer.from(parts[2]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return parts[1];
}

export function sessionCookieHeader(value: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_S}${secure ? '; Secure' : ''}`;
}
