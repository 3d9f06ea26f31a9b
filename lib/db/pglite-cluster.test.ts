import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterFile, openEmbedded } from './pglite-cluster.server';

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-cluster-'));
  dirs.push(dir);
  return path.join(dir, 'pglite');
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

// A cache of this file's own: the project's is read by every other database opened meanwhile (the
// other test files, the e2e suite's servers), which would run initdb again while it is missing.
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-cluster-cache-'));
dirs.push(cacheDir);
const keptCluster = () => clusterFile(cacheDir)!;

/** What makes two clusters the same for the app: server version, databases, roles, encoding. */
const describeCluster = async (db: PGlite) => ({
  version: (await db.query<{ v: string }>('select version() as v')).rows[0].v,
  databases: (await db.query<{ datname: string }>('select datname from pg_database order by datname')).rows,
  roles: (await db.query<{ rolname: string }>("select rolname from pg_roles where rolname not like 'pg\\_%' order by rolname")).rows,
  encoding: (await db.query<{ e: string }>('show server_encoding')).rows[0],
});

// Safety nets only: initdb in wasm took over a minute on a machine at load 16. It runs once here:
// the first database, opened without a kept cluster, is initdb's own, and the one opened from
// the kept cluster is compared with it.
describe('a new embedded database starts from the kept fresh cluster', { timeout: 300_000 }, () => {
  it('without a kept cluster, initdb runs and its result is kept; the next fresh database is the same cluster (version, databases, roles, encoding), starts from it and keeps what is written', async () => {
    expect(fs.existsSync(keptCluster())).toBe(false);
    const first = await openEmbedded(PGlite, dataDir(), cacheDir);
    const fromInitdb = await describeCluster(first);
    await first.close();
    expect(fs.statSync(keptCluster()).size).toBeGreaterThan(0);

    const dir = dataDir();
    const fromKept = await openEmbedded(PGlite, dir, cacheDir);
    expect(await describeCluster(fromKept)).toEqual(fromInitdb);
    await fromKept.exec('create table kept (x int); insert into kept values (42);');
    await fromKept.close();
    // Now it holds a cluster: it is opened as is, nothing loaded over it.
    const again = await openEmbedded(PGlite, dir, cacheDir);
    expect((await again.query<{ x: number }>('select x from kept')).rows).toEqual([{ x: 42 }]);
    await again.close();

    // In memory (no data directory), from the kept cluster too.
    const inMemory = await openEmbedded(PGlite, null, cacheDir);
    expect(await describeCluster(inMemory)).toEqual(fromInitdb);
    await inMemory.close();
  });
});
