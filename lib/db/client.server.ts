/**
 * The database: a Postgres server when DATABASE_URL is set, otherwise embedded PGlite with its
 * files under RUNPAD_DATA_DIR. One schema and one set of migrations, applied at start.
 */
import 'server-only';
import { makeTreePrivate, mkdirPrivate } from '@/lib/security/private-files.server';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.server';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** migrate: applies a migrations folder's further migrations (default: this version's), as at start. */
export type DbHandle = { db: Db; close: () => Promise<void>; migrate: (folder?: string) => Promise<void> };

const migrationsFolder = () => path.join(process.cwd(), 'lib/db/migrations');
/** Any constant shared by every instance: serializes concurrent migrations on one server. */
const MIGRATION_LOCK = 72_310_001;

export type DbOptions = { url: string } | { dataDir: string | null };
/**
 * migrationsFolder: the migrations to apply (default: all of this version's); a restore applies
 * an archive's own first. holder: who opens an embedded database, in the words its lock gives
 * another process that tries to open it meanwhile (lib/db/embedded-lock.server.ts).
 */
export type OpenOptions = { migrationsFolder?: string; holder?: string };

export async function createDb(options: DbOptions, open: OpenOptions = {}): Promise<DbHandle> {
  const folder = open.migrationsFolder ?? migrationsFolder();
  return 'url' in options ? createServerDb(options.url, folder) : createEmbeddedDb(options.dataDir, folder, open.holder ?? 'a Runpad server');
}

async function createServerDb(url: string, folder: string): Promise<DbHandle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // Migrate over one dedicated connection holding an advisory lock, so several app instances
  // starting at once apply migrations one after the other (the later ones find nothing to do).
  const migrateFolder = async (migrations: string) => {
    const lockConnection = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await migrate(drizzle(lockConnection), { migrationsFolder: migrations });
      await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    } finally {
      await lockConnection.end();
    }
  };
  await migrateFolder(folder);
  const client = postgres(url, { max: 10, onnotice: () => undefined });
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, close: () => client.end(), migrate: (migrations = migrationsFolder()) => migrateFolder(migrations) };
}

async function createEmbeddedDb(dataDir: string | null, folder: string, holder: string): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { openEmbedded } = await import('./pglite-cluster.server');
  const { lockEmbeddedDatabase } = await import('./embedded-lock.server');
  if (dataDir) mkdirPrivate(dataDir);
  const unlock = dataDir ? lockEmbeddedDatabase(path.resolve(dataDir), holder) : () => undefined;
  try {
    const client = await openEmbedded(PGlite, dataDir);
    const database = drizzle(client, { schema });
    await migrate(database, { migrationsFolder: folder });
    // PGlite unpacks its cluster with modes of its own (0666): its files are made the owner's alone.
    if (dataDir) makeTreePrivate(dataDir);
    return {
      db: database as unknown as Db,
      close: () => client.close().finally(unlock),
      migrate: (migrations = migrationsFolder()) => migrate(database, { migrationsFolder: migrations }),
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

const globalForDb = globalThis as unknown as { runpadDb?: Promise<DbHandle> };

/** The app's database, opened (and migrated) once per process. */
export async function getDb(): Promise<Db> {
  if (!globalForDb.runpadDb) {
    globalForDb.runpadDb = import('@/lib/config.server').then(({ getConfig }) => {
      const { databaseUrl, dataDir } = getConfig();
      return createDb(databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pglite') });
    });
    globalForDb.runpadDb.catch(() => {
      globalForDb.runpadDb = undefined; // let the next request try again
    });
  }
  return (await globalForDb.runpadDb).db;
}
