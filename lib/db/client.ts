/**
 * The database: a Postgres server when DATABASE_URL is set, otherwise embedded PGlite with its
 * files under RUNPAD_DATA_DIR. One schema and one set of migrations, applied at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbHandle = { db: Db; close: () => Promise<void> };

const migrationsFolder = () => path.join(process.cwd(), 'lib/db/migrations');
/** Any constant shared by every instance: serializes concurrent migrations on one server. */
const MIGRATION_LOCK = 72_310_001;

export type DbOptions = { url: string } | { dataDir: string | null };

export async function createDb(options: DbOptions): Promise<DbHandle> {
  return 'url' in options ? createServerDb(options.url) : createEmbeddedDb(options.dataDir);
}

async function createServerDb(url: string): Promise<DbHandle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // Migrate over one dedicated connection holding an advisory lock, so several app instances
  // starting at once apply migrations one after the other (the later ones find nothing to do).
  const lockConnection = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(lockConnection), { migrationsFolder: migrationsFolder() });
    await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await lockConnection.end();
  }
  const client = postgres(url, { max: 10, onnotice: () => undefined });
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, close: () => client.end() };
}

async function createEmbeddedDb(dataDir: string | null): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { openEmbedded } = await import('./pglite-cluster');
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = await openEmbedded(PGlite, dataDir);
  const database = drizzle(client, { schema });
  await migrate(database, { migrationsFolder: migrationsFolder() });
  return { db: database as unknown as Db, close: () => client.close() };
}

const globalForDb = globalThis as unknown as { runpadDb?: Promise<DbHandle> };

/** The app's database, opened (and migrated) once per process. */
export async function getDb(): Promise<Db> {
  if (!globalForDb.runpadDb) {
    globalForDb.runpadDb = import('@/lib/config').then(({ getConfig }) => {
      const { databaseUrl, dataDir } = getConfig();
      return createDb(databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pglite') });
    });
    globalForDb.runpadDb.catch(() => {
      globalForDb.runpadDb = undefined; // let the next request try again
    });
  }
  return (await globalForDb.runpadDb).db;
}
