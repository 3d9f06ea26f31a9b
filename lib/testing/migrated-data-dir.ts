/**
 * A new data directory whose embedded database already holds this version's migrations, for tests
 * whose subject is not the database's creation: the app opens it as any existing database and
 * finds no migration left to apply. It is a copy of one database migrated once per PGlite version
 * and set of migrations, kept in the project's `node_modules/.cache/runpad/` (as
 * lib/db/pglite-cluster.server.ts keeps PGlite's fresh cluster). A fresh data directory costs the
 * app ~4 s of CPU at its first query (the cluster unpacked, every migration applied); a copy of a
 * migrated one ~0.6 s, and opening it ~0.4 s. The database's creation keeps its own tests
 * (lib/db/migrations.test.ts, lib/ops/private-data.test.ts).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db, DbHandle } from '@/lib/db/client.server';

const root = process.cwd();
const cacheDir = path.join(root, 'node_modules', '.cache', 'runpad');

/** Every file of the migrations folder (the SQL and drizzle's journal), by path and content. */
function migrationsHash(): string {
  const hash = crypto.createHash('sha256');
  const folder = path.join(root, 'lib', 'db', 'migrations');
  const visit = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) visit(file);
      else hash.update(path.relative(folder, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  };
  visit(folder);
  return hash.digest('hex').slice(0, 16);
}

/** The kept migrated database, made first if this version has none (in a process of its own: callers are synchronous). */
function template(): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
  const kept = path.join(cacheDir, `migrated-pglite-${version}-${migrationsHash()}`);
  if (!fs.existsSync(kept) || !fs.existsSync(`${kept}.tar`)) {
    execFileSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join('lib', 'testing', 'make-migrated-database.ts'), kept], { cwd: root, stdio: 'inherit' });
  }
  return kept;
}

/**
 * A new embedded database in memory holding this version's migrations, from the kept one's cluster
 * file (~0.8 s of CPU, against ~2 s for a fresh one migrated), as createDb opens one (drizzle over
 * the app's schema; `migrate` applies a folder's further migrations).
 */
export async function openMigratedInMemory(): Promise<DbHandle> {
  const cluster = fs.readFileSync(`${template()}.tar`);
  const [{ PGlite }, { drizzle }, { migrate }, schema] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator'), import('@/lib/db/schema.server')]);
  const client = new PGlite({ loadDataDir: new Blob([cluster]) });
  const database = drizzle(client, { schema });
  return {
    db: database as unknown as Db,
    close: () => client.close(),
    migrate: (folder = path.join(root, 'lib', 'db', 'migrations')) => migrate(database, { migrationsFolder: folder }),
  };
}

/** A new data directory (under the system's temporary one, named from `prefix`) with a migrated embedded database in it. */
export function migratedDataDir(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(template(), path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}
