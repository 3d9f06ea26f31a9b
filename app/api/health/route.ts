import { readiness, registerShutdown } from '@/lib/health';
import { route } from '@/lib/http/route';
import { withRefusalReason } from '@/lib/http/errors';
import { APP_VERSION } from '@/lib/version';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness for orchestrators and load balancers: 200 `{ status: 'ok', version, database: 'ok', blobStore: 'ok' }`
 * (and `redis: 'ok'` with REDIS_URL) when every dependency answers, else 503
 * `{ status: 'unavailable', database, blobStore, redis? }` with a short reason in place of 'ok' for
 * each that did not, so the one that is down is named. No session, no cookies, never cached.
 */
export const GET = route(async ({ log }) => {
  registerShutdown();
  const { ok, ...checks } = await readiness({ log });
  const response = Response.json({ status: ok ? 'ok' : 'unavailable', version: APP_VERSION, ...checks }, { status: ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
  const down = Object.entries(checks).filter(([, result]) => result !== 'ok').map(([name]) => name);
  return ok ? response : withRefusalReason(response, `unavailable: ${down.join(', ')}`);
});
