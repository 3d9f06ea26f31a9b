/**
 * Rows of a raw SQL statement, whichever driver ran it: postgres-js answers an array of rows,
 * PGlite `{ rows }`. For statements the query builder cannot say (data-modifying CTEs, catalogs).
 */
import 'server-only';
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.server';

/** A database or an open transaction on one. */
export type Queryable = Pick<Db, 'execute'>;

export async function rowsOf<T>(db: Queryable, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
