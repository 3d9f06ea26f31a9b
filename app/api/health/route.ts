import { configurationProblems } from '@/lib/config.server';
import { problemLine } from '@/lib/config-problems.server';
import { readiness, registerShutdown } from '@/lib/health/health.server';
import { route } from '@/lib/http/route.server';
import { withRefusalReason } from '@/lib/http/errors.server';
import { APP_VERSION } from '@/lib/version.server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness for orchestrators and load balancers: 200 `{ status: 'ok', version, configuration: 'ok',
 * database: 'ok', blobStore: 'ok' }` (and `redis: 'ok'` with REDIS_URL) when every dependency
 * answers, else 503 `{ status: 'unavailable', … }` with a short reason in place of 'ok' for each
 * that did not, so the one that is down is named. A configuration that cannot work is 503 with
 * `configuration` listing each problem (variable, what is wrong, what to set; never a value that
 * may be a secret), and nothing else is checked. No session, no cookies, never cached.
 */
export const GET = route(async ({ log }) => {
  registerShutdown();
  const headers = { 'cache-control': 'no-store' };
  const problems = configurationProblems();
  if (problems.length > 0) {
    const response = Response.json({ status: 'unavailable', version: APP_VERSION, configuration: problems.map(problemLine) }, { status: 503, headers });
    return withRefusalReason(response, `unavailable: configuration (${problems.map((p) => p.variable).join(', ')})`);
  }
  const { ok, ...checks } = await readiness({ log });
  const response = Response.json({ status: ok ? 'ok' : 'unavailable', version: APP_VERSION, configuration: 'ok', ...checks }, { status: ok ? 200 : 503, headers });
  const down = Object.entries(checks).filter(([, result]) => result !== 'ok').map(([name]) => name);
  return ok ? response : withRefusalReason(response, `unavailable: ${down.join(', ')}`);
});
