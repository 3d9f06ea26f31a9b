import { NextResponse, type NextRequest } from 'next/server';
import { configurationProblems, getConfig } from '@/lib/config.server';
import { misconfiguredPage } from '@/lib/http/misconfigured-page.server';
import { pageCsp } from '@/lib/security/csp';
import { sessionCookieHeader, sessionCookieName, signSession, verifySession } from '@/lib/auth/session.server';
import { getAuthSecret } from '@/lib/auth/secret.server';
import { accountCookieName } from '@/lib/auth/account-cookie.server';
import { isSecureOrigin, requestOrigin } from '@/lib/request/origin.server';
import { signInPath } from '@/lib/http/redirect-target';

/**
 * Per page request: the page's Content-Security-Policy (lib/security/csp.ts; the workers' own are
 * set where their scripts are served, lib/assets/serve-engine-assets.server.ts), and a guest session cookie
 * for a browser that has none (or a tampered one), visible to the page it is requesting.
 * When RUNPAD_ACCESS requires an account, there are no guests: a page request without an account
 * cookie goes to the sign-in page (whether the cookie is valid is the page's and the API's
 * question), except shared links, which stay readable by anyone who has them.
 */
const PUBLIC_PAGES = [/^\/s\//, /^\/sign-in$/, /^\/reset-password$/, /^\/icon\.svg$/];

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // A configuration that cannot work: every page says what to change, not a bare 500.
  const problems = configurationProblems();
  if (problems.length > 0) return misconfiguredPage(problems, pageCsp(btoa(crypto.randomUUID()), false));
  const config = getConfig();
  const origin = requestOrigin(request.headers, config);
  const nonce = btoa(crypto.randomUUID());
  const csp = pageCsp(nonce, process.env.NODE_ENV === 'development');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);

  if (config.access.mode !== 'open') {
    const signedIn = request.cookies.has(accountCookieName(isSecureOrigin(origin)));
    if (!signedIn && !PUBLIC_PAGES.some((page) => page.test(pathname))) {
      const target = new URL(signInPath({ next: pathname }, origin), origin ?? request.url);
      const redirect = NextResponse.redirect(target);
      redirect.headers.set('Content-Security-Policy', csp);
      return redirect;
    }
    const response = NextResponse.next({ request: { headers: requestHeaders } });
    response.headers.set('Content-Security-Policy', csp);
    return response;
  }

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
    {
      source: '/((?!api|_next/static|_next/image|pyodide|duckdb|webr|workers|favicon.ico).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
