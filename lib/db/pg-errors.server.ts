/**
 * What a database error means, read from its SQLSTATE or socket code (Drizzle wraps the driver's
 * error as `cause`, so the chain is searched).
 */

import 'server-only';
export function errorChain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  let current: unknown = error;
  while (current && seen.length < 6 && !seen.includes(current)) {
    seen.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return seen;
}

export function errorCode(error: unknown): string | undefined {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Postgres SQLSTATE classes and socket codes that mean "the database is not there right now". */
const DATABASE_DOWN = /^(08|57P0[123]|53300)|^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|CONNECTION_(ENDED|DESTROYED|CLOSED))$/;

/** Whether the failure is the database being unreachable (restarting, stopped, refusing). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return errorChain(error).some((e) => {
    const code = errorCode(e);
    if (code && DATABASE_DOWN.test(code)) return true;
    return e instanceof Error && /Connection terminated|connection (is )?(closed|ended)|terminating connection|the database system is (starting up|shutting down)/i.test(e.message);
  });
}
