/**
 * The operator's commands on an instance's data, as configured by the same environment as the
 * server (lib/config.ts): `npm run backup -- FILE`, `npm run restore -- FILE`,
 * `npm run move-to-postgres`. Each prints what it did, or why it did nothing, and exits 0 or 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store';
import { createS3BlobStore } from '@/lib/blobs/s3-blob-store';
import type { BlobStore } from '@/lib/blobs/blob-store';
import { getConfig, type AppConfig } from '@/lib/config';
import { createDb } from '@/lib/db/client';
import { EmbeddedDatabaseInUseError } from '@/lib/db/embedded-lock';
import { APP_VERSION } from '@/lib/version';
import { backup } from './backup';
import { moveToPostgres } from './move-to-postgres';
import { RefusedError } from './refused';
import { restore } from './restore';

const USAGE = 'Usage: npm run backup -- FILE | npm run restore -- FILE | npm run move-to-postgres';

function blobStore(config: AppConfig): BlobStore {
  const settings = config.blobStore;
  return settings.kind === 's3' ? createS3BlobStore(settings) : createFsBlobStore(settings.rootDir);
}

function describeStore(config: AppConfig): string {
  const settings = config.blobStore;
  return settings.kind === 's3' ? `the S3 bucket ${settings.bucket}${settings.prefix ? ` (prefix ${settings.prefix})` : ''}` : settings.rootDir;
}

function embeddedDir(config: AppConfig): string {
  return path.join(config.dataDir, 'pglite');
}

function authSecret(config: AppConfig): { file: string } | 'environment' {
  return config.authSecret ? 'environment' : { file: path.join(config.dataDir, 'auth-secret') };
}

async function main(argv: string[]): Promise<void> {
  const [command, file, ...rest] = argv;
  const needsFile = command === 'backup' || command === 'restore';
  if (!['backup', 'restore', 'move-to-postgres'].includes(command ?? '') || (needsFile && !file) || (!needsFile && file) || rest.length > 0) throw new RefusedError(USAGE);
  const config = getConfig();
  const database = config.databaseUrl ? { url: config.databaseUrl } : { dataDir: embeddedDir(config) };
  const where = config.databaseUrl ? 'the Postgres database at DATABASE_URL' : `the embedded database in ${embeddedDir(config)}`;
  const holder = `npm run ${command}`;

  if (command === 'backup') {
    if (!config.databaseUrl && !fs.existsSync(path.join(embeddedDir(config), 'PG_VERSION'))) {
      throw new RefusedError(`There is no embedded database in ${embeddedDir(config)}: nothing to back up. Set RUNPAD_DATA_DIR (or DATABASE_URL) as the instance has it.`);
    }
    const opened = await createDb(database, { holder });
    try {
      const manifest = await backup({ db: opened.db, databaseKind: config.databaseUrl ? 'postgres' : 'embedded', store: blobStore(config), authSecret: authSecret(config), appVersion: APP_VERSION }, file!);
      const rows = manifest.database.tables.reduce((sum, table) => sum + table.rows, 0);
      console.log(`Backed up ${where}: ${rows} rows in ${manifest.database.tables.length} tables (schema ${manifest.database.migration}), ${manifest.blobs.count} blobs from ${describeStore(config)}, auth secret: ${manifest.authSecret}.`);
      if (manifest.blobs.missing.length > 0) console.warn(`${manifest.blobs.missing.length} blobs named by the database were not in the blob store (listed in the manifest's blobs.missing).`);
      console.log(`Wrote ${path.resolve(file!)} (Runpad ${APP_VERSION}).`);
    } finally {
      await opened.close();
    }
    return;
  }

  if (command === 'restore') {
    const summary = await restore(file!, { database, describe: where, store: blobStore(config), authSecret: authSecret(config), holder });
    console.log(
      `Restored ${summary.rows} rows and ${summary.blobs} blobs from a backup of Runpad ${summary.manifest.appVersion} (${summary.manifest.createdAt}) into ${where} and ${describeStore(config)}; the schema is now ${summary.migratedTo}.`,
    );
    if (summary.manifest.authSecret === 'archived' && config.authSecret) console.warn('AUTH_SECRET is set here, so the archived auth secret is not used: people signed in before the backup sign in again.');
    return;
  }

  if (!config.databaseUrl) throw new RefusedError('Set DATABASE_URL to the Postgres database to move to (a new, empty one), then run npm run move-to-postgres again.');
  const moved = await moveToPostgres(embeddedDir(config), config.databaseUrl, holder);
  console.log(`Copied ${moved.tables.reduce((sum, table) => sum + table.rows, 0)} rows in ${moved.tables.length} tables from ${embeddedDir(config)} to the database at DATABASE_URL.`);
  console.log(`Blobs stay in ${describeStore(config)}; keep RUNPAD_DATA_DIR${config.blobStore.kind === 's3' ? ' and the S3_ settings' : ''} as they are. Start Runpad with DATABASE_URL set; once it runs, ${embeddedDir(config)} can be removed.`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const known = error instanceof RefusedError || error instanceof EmbeddedDatabaseInUseError || (error instanceof Error && error.message.startsWith('Invalid environment'));
    console.error(`runpad: ${known ? (error as Error).message : (error instanceof Error ? (error.stack ?? error.message) : String(error))}`);
    process.exit(1);
  },
);
