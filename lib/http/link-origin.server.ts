/**
 * The origin every absolute URL the server writes starts with (mailed links, the OpenID Connect
 * redirect, the passkey relying party, the links an admin is shown): the configured public origin
 * (RUNPAD_PUBLIC_ORIGIN), never a request's Host, X-Forwarded-Host, X-Forwarded-Proto or Origin
 * where a link can leave the request (lib/request/origin.server.ts says why).
 */
import 'server-only';
import { AppError } from '@/lib/errors.server';
import { requestOrigin, type OriginSettings } from '@/lib/request/origin.server';

type HeaderSource = { get(name: string): string | null };
export type LinkSettings = OriginSettings & { email: object | null; access: { oidc: object | null } };

/** Whether links can leave the request that named the host: mailed, or a provider's redirect. */
export function linksLeaveTheRequest(settings: Pick<LinkSettings, 'email' | 'access'>): boolean {
  return settings.email !== null || settings.access.oidc !== null;
}

/**
 * The origin every absolute URL the server writes starts with: the configured public origin;
 * without a mail server and a provider, the request's own. Throws the refusal in words when
 * there is none (a configuration that needs RUNPAD_PUBLIC_ORIGIN, or a request naming no valid host).
 */
export function linkOrigin(headers: HeaderSource, settings: LinkSettings): string {
  if (settings.publicOrigin) return settings.publicOrigin;
  if (linksLeaveTheRequest(settings)) {
    throw new AppError('server:misconfigured', { message: 'Runpad cannot write links: set RUNPAD_PUBLIC_ORIGIN to the origin people reach it at.', reason: 'no public origin' });
  }
  const origin = requestOrigin(headers, settings);
  if (!origin) throw new AppError('request:invalid', { message: 'This request names no valid host.', reason: 'no origin' });
  return origin;
}

