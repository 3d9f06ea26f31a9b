/**
 * Which of this version's migrations a database has had, and the migrations folder as it was up
 * to one of them (a restore brings an empty database to the archive's schema, loads the rows,
 * then applies the rest).
 */
import 'server-only';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Queryable } from '@/lib/db/rows.server';

export const MIGRATIONS_DIR = path.join(process.cwd(), 'lib/db/migrations');

const journalSchema = z.looseObject({ entries: z.array(z.looseObject({ idx: z.number(), when: z.number(), tag: z.string() })) });
export type Journal = z.infer<typeof journalSchema>;

export function readJournal(dir: string = MIGRATIONS_DIR): Journal {
  return journalSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')));
}

/** The tag of the newest migration `db` has had (drizzle records each one's journal time), or null for none. */
export async function appliedMigration(db: Queryable, journal: Journal = readJournal()): Promise<string | null> {
  const [table] = await rowsOf<{ exists: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`);
  if (!table.exists) return null;
  const [last] = await rowsOf<{ when: string | number }>(db, sql`select created_at as "when" from drizzle.__drizzle_migrations order by created_at desc limit 1`);
  if (!last) return null;
  const entry = journal.entries.find((candidate) => candidate.when === Number(last.when));
  return entry?.tag ?? `unknown (${last.when})`;
}

/** A temporary copy of the migrations folder up to and including `tag`; null when this version has no such migration. */
export function migrationsUpTo(tag: string): string | null {
  const journal = readJournal();
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-migrations-'));
  const entries = journal.entries.slice(0, last + 1);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}
