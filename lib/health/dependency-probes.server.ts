/**
 * One question to each dependency the server needs, answered with a short reason on failure:
 * /api/health (lib/health.server.ts) asks them of a running server, `npm start` and `npm run doctor`
 * (lib/doctor.server.ts) before it starts. A reason is an error's code or name (ECONNREFUSED,
 * NoSuchBucket), never its message, which might name a host, a user or a bucket.
 */
import 'server-only';
import { Redis } from 'ioredis';
import { closeRedis } from '@/lib/streams/redis-connection.server';

/** One PING on a connection of its own, so a check never waits behind the app's queue. */
export async function pingRedis(url: string): Promise<void> {
  // No retries and no log of its own: a failure is the caller's to report, once.
  const client = new Redis(url, { connectionName: 'runpad-health', lazyConnect: true, connectTimeout: 1_500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: unknown = null;
  client.on('error', (error: unknown) => {
    cause ??= error; // the socket's error (ECONNREFUSED, …), reported with the failure
  });
  try {
    await client.connect().catch((error: unknown) => {
      throw cause ?? error;
    });
    await client.ping();
  } finally {
    await closeRedis(client);
  }
}

/** A short, secret-free reason: the error's code or name when it looks like one, else "failed". */
export function failureReason(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, name } = error as { code?: unknown; name?: unknown };
    const label = [code, name].find((value) => typeof value === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(value) && !/^(Type|Range|Syntax|Reference)?Error$/.test(value));
    if (label) return `failed (${label})`;
  }
  return 'failed';
}

/** 'ok', or why `check` failed or did not answer within `timeoutMs`. */
export async function answers(check: () => Promise<void>, timeoutMs: number): Promise<{ ok: true } | { ok: false; reason: string; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<{ ok: false; reason: string; error: unknown }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms`, error: null }), timeoutMs);
  });
  const checked = check().then(
    () => ({ ok: true }) as const,
    (error: unknown) => ({ ok: false, reason: failureReason(error), error }) as const,
  );
  try {
    return await Promise.race([checked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
