/**
 * The origin browsers use to reach the app, decided in one place: the configured public origin
 * (RUNPAD_PUBLIC_ORIGIN) when set; else X-Forwarded-Proto/-Host when the operator says a proxy
 * in front sets them (RUNPAD_TRUST_PROXY); else the request's own Host header. Whatever the
 * source, a host must be a plain host name or IP with an optional port: it ends up in a
 * Content-Security-Policy, where a `;` or a space would add directives.
 *
 * Every absolute URL the server writes (mailed links, the OpenID Connect redirect, the passkey
 * relying party, the links an admin is shown) is built from `linkOrigin`
 * (lib/http/link-origin.server.ts): the configured public origin. Where a link can leave the request that named the host (a mail server or a provider is
 * configured) that origin is required, and the configuration refuses to start without it
 * (lib/config.server.ts); only without either may the request's own origin stand in, since then
 * every URL it writes goes back to the one who sent the header.
 */
import 'server-only';
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export type OriginSettings = { publicOrigin: string | null; trustProxy: boolean };
type HeaderSource = { get(name: string): string | null };

export function isValidHost(host: string): boolean {
  return HOST.test(host);
}

/**
 * `http(s)://host[:port]`, or null when the request names no valid host. `next start` speaks
 * plain HTTP; TLS is terminated in front of it, which only configuration can tell us.
 */
export function requestOrigin(headers: HeaderSource, settings: OriginSettings): string | null {
  if (settings.publicOrigin) return settings.publicOrigin;
  let protocol = 'http:';
  let host = headers.get('host') ?? '';
  if (settings.trustProxy) {
    const forwardedProto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    const forwardedHost = headers.get('x-forwarded-host')?.split(',')[0]?.trim();
    if (forwardedProto === 'https' || forwardedProto === 'http') protocol = `${forwardedProto}:`;
    if (forwardedHost) host = forwardedHost;
  }
  return isValidHost(host) ? `${protocol}//${host.toLowerCase()}` : null;
}

/**
 * Whether an unsafe request comes from the app's own pages. Browsers send Origin with every
 * POST/PUT/PATCH/DELETE and Sec-Fetch-Site with every request; a client that sends neither is
 * not a browser, so it carries no one else's cookies and is let through.
 */
export function isSameOriginRequest(headers: HeaderSource, appOrigin: string | null): boolean {
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin') return false;
  const origin = headers.get('origin');
  if (origin === null) return true;
  return appOrigin !== null && origin.toLowerCase() === appOrigin;
}

/** Whether browsers reach the app over HTTPS (decides the session cookie's name). */
export function isSecureOrigin(origin: string | null): boolean {
  return origin?.startsWith('https:') ?? false;
}
