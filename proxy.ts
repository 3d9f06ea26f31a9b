import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { pageCsp, workerCsp } from '@/lib/security/csp';
import { sessionCookieHeader, sessionCookieName, signSession, verifySession } from '@/lib/auth/session';
import { getAuthSecret } from '@/lib/auth/secret';
import { isSecureOrigin, requestOrigin } from '@/lib/http/origin';

/**
 * Per request: the Content-Security-Policies (lib/security/csp.ts), and a guest session cookie
 * for a browser that has none (or a tampered one), visible to the page it is requesting.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const config = getConfig();
  const origin = requestOrigin(request.headers, config);
  if (pathname.startsWith('/workers/')) {
    // A path-limited connect-src needs the origin; without a valid one the worker gets no network.
    const response = NextResponse.next();
    response.headers.set('Content-Security-Policy', workerCsp(origin, config.pyodideIndexPath, config.packageBaseUrl, { assetPath: config.duckdbAssetPath, extensionUrl: config.duckdbExtensionUrl }));
    response.headers.set('Vary', 'Host');
    return response;
  }

  const nonce = btoa(crypto.randomUUID());
  const csp = pageCsp(nonce, process.env.NODE_ENV === 'development');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);

  const secret = getAuthSecret();
  const cookieName = sessionCookieName(isSecureOrigin(origin));
  const current = request.cookies.get(cookieName)?.value;
  let setCookie: string | null = null;
  if (!current || !verifySession(current, secret)) {
    const value = signSession(crypto.randomUUID(), secret);
    setCookie = sessionCookieHeader(value, isSecureOrigin(origin));
    const others = request.cookies
      .getAll()
      .filter((c) => c.name !== cookieName)
      .map((c) => `${c.name}=${c.value}`);
    requestHeaders.set('cookie', [...others, `${cookieName}=${value}`].join('; '));
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
