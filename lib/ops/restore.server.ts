/**
 * `npm run restore -- FILE`: puts an archive written by `npm run backup` back into an empty
 * database (embedded or Postgres) and the configured blob store. The archive is unpacked into a
 * temporary directory and every file checked against the manifest's SHA-256 before anything is
 * written; the database is brought to the archive's schema, the rows loaded in one transaction,
 * then this version's later migrations applied.
 */
import 'server-only';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { extract as extractTar } from 'tar';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import { createDb, type DbOptions } from '@/lib/db/client.server';
import { sha256OfFile } from './backup.server';
import { ARCHIVE_PATH, manifestSchema, type Manifest } from './manifest.server';
import { appliedMigration, migrationsUpTo, readJournal } from './migrations.server';
import { RefusedError } from './refused.server';
import { nonEmptyTables, resetSequences, tablesInOrder, writeRows } from './tables.server';
import { mkdirPrivate } from '@/lib/security/private-files.server';

export type RestoreTarget = {
  database: DbOptions;
  /** Where the target is, in words for messages ("the embedded database in /srv/runpad/.data/pglite"). */
  describe: string;
  store: BlobStore;
  /** Where the generated auth secret goes; 'environment' when AUTH_SECRET is set. */
  authSecret: { file: string } | 'environment';
  holder: string;
};

async function unpack(file: string, into: string): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new RefusedError(`There is no archive at ${file}.`);
  await extractTar({ file, cwd: into, strict: true, filter: (entry) => entry === 'manifest.json' || ARCHIVE_PATH.test(entry) });
  const manifestFile = path.join(into, 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new RefusedError(`${file} is not a Runpad backup (it has no manifest.json).`);
  const parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(manifestFile, 'utf8')));
  if (!parsed.success) throw new RefusedError(`${file} is not a Runpad backup this version can read (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}).`);
  for (const entry of parsed.data.files) {
    const full = path.join(into, entry.path);
    if (!fs.existsSync(full)) throw new RefusedError(`The archive is incomplete: ${entry.path} is missing. Restore from another backup.`);
    if (fs.statSync(full).size !== entry.size || (await sha256OfFile(full)) !== entry.sha256) {
      throw new RefusedError(`The archive is damaged: ${entry.path} does not match its checksum. Restore from another backup.`);
    }
  }
  return parsed.data;
}

async function* lines(file: string): AsyncGenerator<string> {
  const reader = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of reader) if (line) yield line;
}

/** Puts the archive's blobs into the store; returns how many. */
async function putBlobs(manifest: Manifest, staging: string, store: BlobStore): Promise<number> {
  let count = 0;
  for (const entry of manifest.files) {
    if (!entry.path.startsWith('blobs/')) continue;
    const put = await store.put(fs.createReadStream(path.join(staging, entry.path)), { maxBytes: Number.MAX_SAFE_INTEGER });
    if (`blobs/${put.sha256}` !== entry.path) throw new Error(`The blob store kept ${entry.path} under another hash (${put.sha256}).`);
    count += 1;
  }
  return count;
}

export type RestoreSummary = { manifest: Manifest; rows: number; blobs: number; migratedTo: string | null };

export async function restore(file: string, target: RestoreTarget): Promise<RestoreSummary> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-restore-'));
  let folder: string | null = null;
  try {
    const manifest = await unpack(path.resolve(file), staging);
    folder = migrationsUpTo(manifest.database.migration);
    if (!folder) {
      throw new RefusedError(
        `This archive was made by Runpad ${manifest.appVersion}, whose database schema (${manifest.database.migration}) is newer than this install's. Install Runpad ${manifest.appVersion} or later, then restore.`,
      );
    }
    if (target.authSecret !== 'environment' && manifest.authSecret === 'environment') {
      console.warn('The archive has no auth secret: it was taken with AUTH_SECRET set. Set the same AUTH_SECRET here, or everyone signs in again.');
    }

    // The target at the archive's schema; a fresh one gets exactly it.
    const opened = await createDb(target.database, { migrationsFolder: folder, holder: target.holder });
    let rows = 0;
    let blobs = 0;
    let migratedTo: string | null = null;
    try {
      const schema = await appliedMigration(opened.db);
      if (schema !== manifest.database.migration) {
        throw new RefusedError(
          `${target.describe} already has Runpad's schema at ${schema}, not the archive's ${manifest.database.migration}. Restore into a new, empty database (or an empty data directory).`,
        );
      }
      const holding = await nonEmptyTables(opened.db);
      if (holding.length > 0) {
        throw new RefusedError(
          `${target.describe} is not empty (${holding.map((t) => `${t.table}: ${t.rows} rows`).join(', ')}). Restore into a new, empty database (or an empty data directory); nothing was changed.`,
        );
      }
      // The blobs and the secret first (a blob put twice is kept once): the rows, committed last,
      // never name bytes that are not there, and a restore cut short can simply be run again.
      blobs = await putBlobs(manifest, staging, target.store);
      if (manifest.authSecret === 'archived' && target.authSecret !== 'environment') {
        mkdirPrivate(path.dirname(target.authSecret.file));
        fs.copyFileSync(path.join(staging, 'auth-secret'), target.authSecret.file);
        fs.chmodSync(target.authSecret.file, 0o600);
      }
      const archived = new Set(manifest.database.tables.map((table) => table.name));
      await opened.db.transaction(async (tx) => {
        const order = await tablesInOrder(tx);
        const unknown = [...archived].filter((name) => !order.includes(name));
        if (unknown.length > 0) throw new RefusedError(`The archive holds tables this schema does not have (${unknown.join(', ')}); it was not written by Runpad ${manifest.appVersion} as it says.`);
        for (const table of order) {
          if (!archived.has(table)) continue;
          const batch: string[] = [];
          for await (const line of lines(path.join(staging, 'database', `${table}.ndjson`))) {
            batch.push(line);
            if (batch.length >= 500) rows += await writeRows(tx, table, batch.splice(0));
          }
          rows += await writeRows(tx, table, batch);
        }
        await resetSequences(tx);
      });
      // This version's later migrations, as `npm start` would apply them.
      await opened.migrate();
      migratedTo = await appliedMigration(opened.db, readJournal());
    } finally {
      await opened.close();
    }

    return { manifest, rows, blobs, migratedTo };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  }
}
