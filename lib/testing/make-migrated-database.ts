/**
 * Makes the migrated embedded database lib/testing/migrated-data-dir.ts copies, at the path given:
 * built beside it and renamed into place whole, so a process copying it never sees half of one.
 * Older ones (other PGlite versions or migrations) are removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createDb } from '@/lib/db/client.server';

const target = process.argv[2];
if (!target) throw new Error('usage: make-migrated-database.ts <directory>');
const partial = `${target}.${process.pid}.partial`;
const handle = await createDb({ dataDir: partial }, { holder: 'the tests making a migrated database' });
await handle.close();
try {
  fs.renameSync(partial, target);
} catch {
  fs.rmSync(partial, { recursive: true, force: true }); // another process made it meanwhile
}
const dir = path.dirname(target);
for (const name of fs.readdirSync(dir)) {
  if (name.startsWith('migrated-pglite-') && path.join(dir, name) !== target && !name.endsWith('.partial')) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}
