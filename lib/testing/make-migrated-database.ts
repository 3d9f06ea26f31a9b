/**
 * Makes the migrated embedded database lib/testing/migrated-data-dir.ts copies, at the path given,
 * and its cluster as one file (`<path>.tar`, PGlite's dumpDataDir) for databases in memory: each
 * built beside it and renamed into place whole, so a process reading it never sees half of one.
 * Older ones (other PGlite versions or migrations) are removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createDb } from '@/lib/db/client.server';
import { openEmbedded } from '@/lib/db/pglite-cluster.server';

const target = process.argv[2];
if (!target) throw new Error('usage: make-migrated-database.ts <directory>');
const partial = `${target}.${process.pid}.partial`;
// Whatever stops this, no half-made copy is left (after the renames there is none to remove).
process.on('exit', () => {
  fs.rmSync(partial, { recursive: true, force: true });
  fs.rmSync(`${partial}.tar`, { force: true });
  fs.rmSync(`${partial}.lock`, { force: true });
});
const handle = await createDb({ dataDir: partial }, { holder: 'the tests making a migrated database' });
await handle.close();
// The same migrations on a database in memory (as createDb opens one), dumped whole.
const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
const inMemory = await openEmbedded(PGlite, null);
await migrate(drizzle(inMemory), { migrationsFolder: path.join(process.cwd(), 'lib', 'db', 'migrations') });
fs.writeFileSync(`${partial}.tar`, new Uint8Array(await (await inMemory.dumpDataDir('none')).arrayBuffer()));
await inMemory.close();
// The cluster file first: whoever finds the directory finds its file too.
fs.renameSync(`${partial}.tar`, `${target}.tar`);
try {
  fs.renameSync(partial, target);
} catch {
  fs.rmSync(partial, { recursive: true, force: true }); // another process made it meanwhile
}
const dir = path.dirname(target);
for (const name of fs.readdirSync(dir)) {
  if (name.startsWith('migrated-pglite-') && ![target, `${target}.tar`].includes(path.join(dir, name)) && !name.includes('.partial')) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}
