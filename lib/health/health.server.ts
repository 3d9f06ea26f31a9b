/**
 * Readiness (GET /api/health) and a clean stop for the server process.
 *
 * readiness(): the database answers `select 1`, the blob store's check() resolves and, with
 * REDIS_URL, Redis answers PING, each within a time limit. A failed check is reported with a short reason (a timeout, or an error code such as
 * ECONNREFUSED), never an error message, which might name a host, a user or a bucket; the full error
 * goes to the server log.
 *
 * registerShutdown(): on SIGTERM or SIGINT, Next (start-server) stops accepting, waits for in-flight
 * requests, then calls process.exit(). From the signal on, that exit is deferred until the database
 * (globalThis.runpadDb, opened by lib/db/client.server.ts) is closed, so PGlite shuts down cleanly and
 * Postgres connections are ended, but no request still in flight loses its database.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { getConfig } from '@/lib/config.server';
import { failureReason, pingRedis } from './dependency-probes.server';
import { getDb, type DbHandle } from '@/lib/db/client.server';
import { logger, type Logger } from '@/lib/log/logger.server';

export const CHECK_TIMEOUT_MS = 2_000;
/** How long process exit waits for the database to close after a stop signal. */
const CLOSE_TIMEOUT_MS = 3_000;

export type CheckResult = 'ok' | string;
/** redis: only when REDIS_URL is set (answer streams and rate limits live there). */
export type Readiness = { ok: boolean; database: CheckResult; blobStore: CheckResult; redis?: CheckResult };

async function probe(name: string, check: () => Promise<void>, timeoutMs: number, log: Logger): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => {
      log.warn({ check: name, timeoutMs }, 'readiness check timed out');
      resolve(`no answer within ${timeoutMs} ms`);
    }, timeoutMs);
  });
  const checked = check().then(
    (): CheckResult => 'ok',
    (error: unknown): CheckResult => {
      log.warn({ err: error, check: name }, 'readiness check failed');
      return failureReason(error);
    },
  );
  try {
    return await Promise.race([checked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the database and the blob store answer, each within `timeoutMs`. */
export async function readiness(options: { timeoutMs?: number; log?: Logger } = {}): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const log = options.log ?? logger();
  const redisUrl = getConfig().redisUrl;
  const [database, blobStore, redis] = await Promise.all([
    probe(
      'database',
      async () => {
        const db = await getDb();
        await db.execute(sql`select 1`);
      },
      timeoutMs,
      log,
    ),
    probe(
      'blobStore',
      async () => {
        const store = await getBlobStore();
        await store.check();
      },
      timeoutMs,
      log,
    ),
    redisUrl ? probe('redis', () => pingRedis(redisUrl), timeoutMs, log) : Promise.resolve(undefined),
  ]);
  return { ok: database === 'ok' && blobStore === 'ok' && (redis === undefined || redis === 'ok'), database, blobStore, ...(redis === undefined ? {} : { redis }) };
}

const globals = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadShutdownRegistered?: boolean };

/** Closes the process's database, if one was opened; gives up after `timeoutMs`. */
async function closeDatabase(timeoutMs: number): Promise<void> {
  const opening = globals.runpadDb;
  if (!opening) return;
  let timer: NodeJS.Timeout | undefined;
  const close = opening.then((handle) => handle.close());
  const timedOut = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database not closed within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([close, timedOut]);
    logger().info('database closed');
  } catch (error) {
    logger().warn({ err: error }, 'database not closed cleanly');
  } finally {
    clearTimeout(timer);
  }
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

function onStopSignal(signal: keyof typeof EXIT_CODES): void {
  const exit = process.exit.bind(process);
  let closing: Promise<void> | undefined;
  const closeThenExit = (code?: number | string | null) => {
    closing ??= closeDatabase(CLOSE_TIMEOUT_MS);
    void closing.finally(() => exit(code));
  };
  process.exit = closeThenExit as typeof process.exit;
  // Only this listener: nothing else (Next, with NEXT_MANUAL_SIG_HANDLE unset) will exit, so do.
  if (process.listenerCount(signal) === 1) closeThenExit(EXIT_CODES[signal]);
}

/** Once per process: close the database before the server process exits on SIGTERM or SIGINT. */
export function registerShutdown(): void {
  if (globals.runpadShutdownRegistered) return;
  globals.runpadShutdownRegistered = true;
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      onStopSignal(signal);
    });
  }
}
