import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { openEmbedded } from './pglite-cluster.server';

const MIGRATIONS = path.join(process.cwd(), 'lib/db/migrations');

/** The migrations folder as it was up to (and including) the migration tagged `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-migrations-'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(last).toBeGreaterThanOrEqual(0);
  const entries = journal.entries.slice(0, last + 1);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) fs.copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

/** Upgrading a database that holds what the code before a migration allowed. */
describe('migrations of stored data', () => {
  it('0006: a conversation that got two active links keeps the newest; the other is revoked', async () => {
    const client = await openEmbedded(PGlite, null);
    const db = drizzle(client);
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0005_accounts') });
      const user = crypto.randomUUID();
      const conversation = crypto.randomUUID();
      const other = crypto.randomUUID();
      await client.query(`insert into users (id) values ($1)`, [user]);
      for (const id of [conversation, other]) await client.query(`insert into conversations (id, owner_id, title) values ($1, $2, 't')`, [id, user]);
      const share = (id: string, conversationId: string, updatedAt: string, revoked: boolean) =>
        client.query(`insert into shares (id, conversation_id, owner_id, snapshot, updated_at, revoked_at) values ($1, $2, $3, '[]', $4, $5)`, [id, conversationId, user, updatedAt, revoked ? updatedAt : null]);
      await share('older', conversation, '2026-01-01T00:00:00Z', false);
      await share('newer', conversation, '2026-01-02T00:00:00Z', false);
      await share('revoked-before', conversation, '2026-01-03T00:00:00Z', true);
      await share('alone', other, '2026-01-01T00:00:00Z', false);

      await migrate(db, { migrationsFolder: MIGRATIONS });

      const { rows } = await client.query<{ id: string; active: boolean }>(`select id, revoked_at is null as active from shares order by id`);
      expect(rows).toEqual([
        { id: 'alone', active: true },
        { id: 'newer', active: true },
        { id: 'older', active: false },
        { id: 'revoked-before', active: false },
      ]);
      // From now on the database itself refuses a second active link.
      await expect(share('second', other, '2026-01-05T00:00:00Z', false)).rejects.toThrow(/shares_one_active/);
    } finally {
      await client.close();
    }
  });
});
