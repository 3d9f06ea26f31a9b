import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { pageCsp, workerCsp } from '@/lib/security/csp';
import { SESSION_COOKIE, sessionCookieHeader, signSession, verifySession } from '@/lib/auth/session';
import { getAuthSecret } from '@/lib/auth/secret';

/**
 * Per request: the Content-Security-Policies (lib/security/csp.ts), and a guest session cookie
 * for a browser that has none (or a tampered one), visible to the page it is requesting.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith('/workers/')) {
    const config = getConfig();
    // The origin the browser used (Next's own URL may name localhost instead of the host asked for).
    const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? request.nextUrl.host;
    const origin = `${request.nextUrl.protocol}//${host}`;
    const response = NextResponse.next();
    response.headers.set('Content-Security-Policy', workerCsp(origin, config.pyodideIndexPath, config.packageBaseUrl));
    return response;
  }

  const nonce = btoa(crypto.randomUUID());
  const csp = pageCsp(nonce, process.env.NODE_ENV === 'development');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);

  const secret = getAuthSecret();
  const current = request.cookies.get(SESSION_COOKIE)?.value;
  let setCookie: string | null = null;
  if (!current || !verifySession(current, secret)) {
    const value = signSession(crypto.randomUUID(), secret);
    setCookie = sessionCookieHeader(value, request.nextUrl.protocol === 'https:');
    const others = request.cookies
      .getAll()
      .filter((c) => c.name !== SESSION_COOKIE)
      .map((c) => `${c.name}=${c.value}`);
    requestHeaders.set('cookie', [...others, `${SESSION_COOKIE}=${value}`].join('; '));
  }

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  if (setCookie) response.headers.append('Set-Cookie', setCookie);
  return response;
}

export const config = {
  matcher: [
    '/workers/:path*',
    {
      source: '/((?!api|_next/static|_next/image|pyodide|favicon.ico).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
