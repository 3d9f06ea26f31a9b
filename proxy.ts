import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { pageCsp, workerCsp } from '@/lib/security/csp';

/** Sets the per-request Content-Security-Policies (see lib/security/csp.ts). */
export function proxy(request: NextRequest) {
  const { pathname, origin } = request.nextUrl;
  if (pathname.startsWith('/workers/')) {
    const config = getConfig();
    const response = NextResponse.next();
    response.headers.set('Content-Security-Policy', workerCsp(origin, config.pyodideIndexPath, config.packageBaseUrl));
    return response;
  }
  const nonce = btoa(crypto.randomUUID());
  const csp = pageCsp(nonce, process.env.NODE_ENV === 'development');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  matcher: [
    { source: '/workers/:path*' },
    {
      source: '/((?!api|_next/static|_next/image|pyodide|favicon.ico).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
