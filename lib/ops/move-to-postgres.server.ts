/**
 * `npm run move-to-postgres`: copies every table of the embedded database (RUNPAD_DATA_DIR/pglite)
 * into the empty Postgres database DATABASE_URL names, in one transaction on each side. Blobs are
 * not copied: their rows move, their bytes stay where they are (the filesystem store under
 * RUNPAD_DATA_DIR, or the S3 bucket), which the instance keeps using. The embedded directory is
 * left as it was.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { createDb } from '@/lib/db/client.server';
import { RefusedError } from './refused.server';
import { nonEmptyTables, readTable, resetSequences, tablesInOrder, writeRows } from './tables.server';

export type MoveSummary = { tables: { name: string; rows: number }[] };

export async function moveToPostgres(embeddedDir: string, url: string, holder: string): Promise<MoveSummary> {
  if (!fs.existsSync(path.join(embeddedDir, 'PG_VERSION'))) {
    throw new RefusedError(`There is no embedded database in ${embeddedDir}. Set RUNPAD_DATA_DIR to the data directory the instance used.`);
  }
  // Both at this version's schema: the embedded one as `npm start` would migrate it.
  const target = await createDb({ url });
  try {
    const holding = await nonEmptyTables(target.db);
    if (holding.length > 0) {
      throw new RefusedError(
        `The database at DATABASE_URL is not empty (${holding.map((t) => `${t.table}: ${t.rows} rows`).join(', ')}). Point DATABASE_URL at a new, empty database; nothing was changed.`,
      );
    }
    const source = await createDb({ dataDir: embeddedDir }, { holder });
    try {
      const tables: MoveSummary['tables'] = [];
      await source.db.transaction(
        (read) =>
          target.db.transaction(async (write) => {
            for (const name of await tablesInOrder(read)) {
              let rows = 0;
              for await (const batch of readTable(read, name)) rows += await writeRows(write, name, batch);
              tables.push({ name, rows });
            }
            await resetSequences(write);
          }),
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      return { tables };
    } finally {
      await source.close();
    }
  } finally {
    await target.close();
  }
}
