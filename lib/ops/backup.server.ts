/**
 * `npm run backup -- FILE`: one .tar.gz holding every table of the database (one NDJSON file per
 * table, read in one repeatable-read transaction: a consistent snapshot, also of a Postgres
 * database in use), the bytes of every blob those tables name (read from the blob store), the
 * generated auth secret, and manifest.json (versions, row counts, each file's size and SHA-256).
 * The archive is written under another name and renamed when complete.
 */
import 'server-only';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { create as createTar } from 'tar';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import type { Db } from '@/lib/db/client.server';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type Manifest } from './manifest.server';
import { appliedMigration } from './migrations.server';
import { rowsOf } from '@/lib/db/rows.server';
import { readTable, tablesInOrder } from './tables.server';
import { mkdirPrivate } from '@/lib/security/private-files.server';

export type BackupSource = {
  db: Db;
  databaseKind: 'embedded' | 'postgres';
  store: BlobStore;
  /** The generated secret's file, or 'environment' when AUTH_SECRET is set. */
  authSecret: { file: string } | 'environment';
  appVersion: string;
};

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes the archive to `file`; returns its manifest. */
export async function backup(source: BackupSource, file: string): Promise<Manifest> {
  const target = path.resolve(file);
  mkdirPrivate(path.dirname(target));
  const staging = fs.mkdtempSync(path.join(path.dirname(target), '.runpad-backup-'));
  try {
    fs.mkdirSync(path.join(staging, 'database'));
    fs.mkdirSync(path.join(staging, 'blobs'));
    const snapshot = await source.db.transaction(
      async (tx) => {
        const tables: Manifest['database']['tables'] = [];
        for (const name of await tablesInOrder(tx)) {
          const out = fs.createWriteStream(path.join(staging, 'database', `${name}.ndjson`));
          let rows = 0;
          const lines = async function* () {
            for await (const batch of readTable(tx, name)) {
              rows += batch.length;
              yield `${batch.join('\n')}\n`;
            }
          };
          await pipeline(Readable.from(lines()), out);
          tables.push({ name, rows });
        }
        const [{ version }] = await rowsOf<{ version: string }>(tx, sql`select version() as version`);
        const migration = await appliedMigration(tx);
        // Blobs whose bytes earlier versions kept in the database travel in its dump.
        const blobs = (await rowsOf<{ sha256: string }>(tx, sql`select sha256 from blobs where bytes is null order by sha256`)).map((row) => row.sha256);
        return { tables, version, migration, blobs };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    if (!snapshot.migration) throw new Error('The database has no Runpad schema yet: there is nothing to back up.');

    const missing: string[] = [];
    for (const sha256 of snapshot.blobs) {
      const stream = await source.store.read(sha256);
      if (!stream) {
        missing.push(sha256); // deleted since the snapshot, or lost before it: named in the manifest
        continue;
      }
      await pipeline(Readable.fromWeb(stream as import('node:stream/web').ReadableStream<Uint8Array>), fs.createWriteStream(path.join(staging, 'blobs', sha256)));
    }

    let authSecret: Manifest['authSecret'] = 'environment';
    if (source.authSecret !== 'environment') {
      authSecret = fs.existsSync(source.authSecret.file) ? 'archived' : 'none';
      if (authSecret === 'archived') fs.copyFileSync(source.authSecret.file, path.join(staging, 'auth-secret'));
    }

    const paths = [
      ...snapshot.tables.map((table) => `database/${table.name}.ndjson`),
      ...snapshot.blobs.filter((sha256) => !missing.includes(sha256)).map((sha256) => `blobs/${sha256}`),
      ...(authSecret === 'archived' ? ['auth-secret'] : []),
    ];
    const files: Manifest['files'] = [];
    for (const entry of paths) {
      const full = path.join(staging, entry);
      files.push({ path: entry, size: fs.statSync(full).size, sha256: await sha256OfFile(full) });
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      appVersion: source.appVersion,
      database: { kind: source.databaseKind, server: snapshot.version, migration: snapshot.migration, tables: snapshot.tables },
      blobs: { store: source.store.kind, count: snapshot.blobs.length - missing.length, missing },
      authSecret,
      files,
    };
    fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = path.join(staging, 'archive.partial');
    await createTar({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', ...paths]);
    fs.renameSync(partial, target);
    fs.chmodSync(target, 0o600); // it holds the auth secret and everyone's data
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
