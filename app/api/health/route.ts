import { readiness, registerShutdown } from '@/lib/health';
import { route } from '@/lib/http/route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness for orchestrators and load balancers: 200 `{ status: 'ok', database: 'ok', blobStore: 'ok' }`
 * when the database and the blob store both answer, else 503 `{ status: 'unavailable', database, blobStore }`
 * with a short reason in place of 'ok' for each that did not. No session, no cookies, never cached.
 */
export const GET = route(async ({ log }) => {
  registerShutdown();
  const { ok, database, blobStore } = await readiness({ log });
  return Response.json({ status: ok ? 'ok' : 'unavailable', database, blobStore }, { status: ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
});
