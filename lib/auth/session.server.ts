/**
 * The guest session cookie: `v1.<user uuid>.<HMAC-SHA256>` (base64url). Anything malformed,
 * tampered with or signed with another secret verifies to null.
 */
import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Over HTTPS the cookie is `__Host-` prefixed: browsers then accept it only with Secure, Path=/
 * and no Domain, so a sibling subdomain cannot set or replace it (session fixation). Plain HTTP
 * (local development) cannot carry a Secure cookie, so there it has a plain name.
 */
export const SESSION_COOKIE = 'runpad_session';
export const SECURE_SESSION_COOKIE = '__Host-runpad_session';

export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}
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
  return `${sessionCookieName(secure)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_S}${secure ? '; Secure' : ''}`;
}
