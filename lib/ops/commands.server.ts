/**
 * The operator's commands on an instance's data (`backup FILE`, `restore FILE`,
 * `move-to-postgres`), given the settings they act on and where to print. `npm run backup` and the
 * others reach them through lib/ops/cli.server.ts, which reads the settings from the environment as the
 * server does (lib/config.server.ts) and turns a failure into its line and exit code 1; the tests call
 * them in the test's process with settings of their own.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import { createS3BlobStore } from '@/lib/blobs/s3-blob-store.server';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import type { AppConfig } from '@/lib/config.server';
import { ConfigurationError } from '@/lib/config-problems.server';
import { createDb } from '@/lib/db/client.server';
import { EmbeddedDatabaseInUseError } from '@/lib/db/embedded-lock.server';
import { APP_VERSION } from '@/lib/version.server';
import { backup } from './backup.server';
import { moveToPostgres } from './move-to-postgres.server';
import { RefusedError } from './refused.server';
import { restore } from './restore.server';

/** What the commands read of the configuration. */
export type OpsSettings = Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'authSecret' | 'blobStore'>;
/** Where a command prints what it did (console, in the command). */
export type OpsOutput = { log: (line: string) => void; warn: (line: string) => void };

const USAGE = 'Usage: npm run backup -- FILE | npm run restore -- FILE | npm run move-to-postgres';

function blobStore(settings: OpsSettings): BlobStore {
  const store = settings.blobStore;
  return store.kind === 's3' ? createS3BlobStore(store) : createFsBlobStore(store.rootDir);
}

function describeStore(settings: OpsSettings): string {
  const store = settings.blobStore;
  return store.kind === 's3' ? `the S3 bucket ${store.bucket}${store.prefix ? ` (prefix ${store.prefix})` : ''}` : store.rootDir;
}

function embeddedDir(settings: OpsSettings): string {
  return path.join(settings.dataDir, 'pglite');
}

function authSecret(settings: OpsSettings): { file: string } | 'environment' {
  return settings.authSecret ? 'environment' : { file: path.join(settings.dataDir, 'auth-secret') };
}

/**
 * Runs one command (argv as typed after `npm run`: the command's name, then its file). The
 * settings are read only once the command line is valid, so a usage mistake is named before a
 * configuration problem. Throws what refuses it (see failureLine).
 */
export async function runOpsCommand(argv: string[], readSettings: () => OpsSettings, output: OpsOutput): Promise<void> {
  const [command, file, ...rest] = argv;
  const needsFile = command === 'backup' || command === 'restore';
  if (!['backup', 'restore', 'move-to-postgres'].includes(command ?? '') || (needsFile && !file) || (!needsFile && file) || rest.length > 0) throw new RefusedError(USAGE);
  const settings = readSettings();
  const database = settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: embeddedDir(settings) };
  const where = settings.databaseUrl ? 'the Postgres database at DATABASE_URL' : `the embedded database in ${embeddedDir(settings)}`;
  const holder = `npm run ${command}`;

  if (command === 'backup') {
    if (!settings.databaseUrl && !fs.existsSync(path.join(embeddedDir(settings), 'PG_VERSION'))) {
      throw new RefusedError(`There is no embedded database in ${embeddedDir(settings)}: nothing to back up. Set RUNPAD_DATA_DIR (or DATABASE_URL) as the instance has it.`);
    }
    const opened = await createDb(database, { holder });
    try {
      const manifest = await backup({ db: opened.db, databaseKind: settings.databaseUrl ? 'postgres' : 'embedded', store: blobStore(settings), authSecret: authSecret(settings), appVersion: APP_VERSION }, file!);
      const rows = manifest.database.tables.reduce((sum, table) => sum + table.rows, 0);
      output.log(`Backed up ${where}: ${rows} rows in ${manifest.database.tables.length} tables (schema ${manifest.database.migration}), ${manifest.blobs.count} blobs from ${describeStore(settings)}, auth secret: ${manifest.authSecret}.`);
      if (manifest.blobs.missing.length > 0) output.warn(`${manifest.blobs.missing.length} blobs named by the database were not in the blob store (listed in the manifest's blobs.missing).`);
      output.log(`Wrote ${path.resolve(file!)} (Runpad ${APP_VERSION}).`);
    } finally {
      await opened.close();
    }
    return;
  }

  if (command === 'restore') {
    const summary = await restore(file!, { database, describe: where, store: blobStore(settings), authSecret: authSecret(settings), holder });
    output.log(
      `Restored ${summary.rows} rows and ${summary.blobs} blobs from a backup of Runpad ${summary.manifest.appVersion} (${summary.manifest.createdAt}) into ${where} and ${describeStore(settings)}; the schema is now ${summary.migratedTo}.`,
    );
    if (summary.manifest.authSecret === 'archived' && settings.authSecret) output.warn('AUTH_SECRET is set here, so the archived auth secret is not used: people signed in before the backup sign in again.');
    return;
  }

  if (!settings.databaseUrl) throw new RefusedError('Set DATABASE_URL to the Postgres database to move to (a new, empty one), then run npm run move-to-postgres again.');
  const moved = await moveToPostgres(embeddedDir(settings), settings.databaseUrl, holder);
  output.log(`Copied ${moved.tables.reduce((sum, table) => sum + table.rows, 0)} rows in ${moved.tables.length} tables from ${embeddedDir(settings)} to the database at DATABASE_URL.`);
  output.log(`Blobs stay in ${describeStore(settings)}; keep RUNPAD_DATA_DIR${settings.blobStore.kind === 's3' ? ' and the S3_ settings' : ''} as they are. Start Runpad with DATABASE_URL set; once it runs, ${embeddedDir(settings)} can be removed.`);
}

/**
 * The line a command prints when it fails: the words of a refusal the operator can act on (a
 * refusal, a database in use, a configuration problem), else the whole stack of what went wrong.
 */
export function failureLine(error: unknown): string {
  const known = error instanceof RefusedError || error instanceof EmbeddedDatabaseInUseError || error instanceof ConfigurationError;
  return `runpad: ${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
