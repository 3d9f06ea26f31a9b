import { createHash, timingSafeEqual } from 'node:crypto';
import { getConfig } from '@/lib/config.server';
import { AppError } from '@/lib/errors.server';
import { route } from '@/lib/http/route.server';
import { metricsText } from '@/lib/metrics/registry.server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * This instance's metrics in Prometheus' text format (lib/metrics/registry.server.ts), for the Bearer
 * token set in RUNPAD_METRICS_TOKEN: 404 when none is set (metrics off), 401 without it or with
 * another. Compared as digests in constant time, so the answer's timing does not spell the token.
 */
export const GET = route(async ({ request }) => {
  const token = getConfig().metricsToken;
  if (!token) throw new AppError('metrics:off', { reason: 'RUNPAD_METRICS_TOKEN unset' });
  const sent = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
  if (!timingSafeEqual(digest(sent), digest(token))) {
    throw new AppError('metrics:unauthorized', { reason: sent ? 'wrong metrics token' : 'no metrics token', headers: { 'www-authenticate': 'Bearer realm="runpad-metrics"' } });
  }
  const { contentType, body } = await metricsText();
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
});
