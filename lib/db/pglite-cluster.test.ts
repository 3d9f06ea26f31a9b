import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterOptions } from './pglite-cluster';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-cluster-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('a new embedded database starts from the kept fresh cluster', () => {
  it('a fresh data directory gets a working cluster that keeps what is written, and is opened as is afterwards', async () => {
    const dataDir = path.join(tempDir(), 'pglite');
    const options = await clusterOptions(PGlite, dataDir);
    expect(options.loadDataDir).toBeInstanceOf(Blob);
    const first = new PGlite(dataDir, options);
    await first.exec('create table kept (x int); insert into kept values (42);');
    await first.close();
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    // Now it holds a cluster: nothing is loaded over it.
    expect(await clusterOptions(PGlite, dataDir)).toEqual({});
    const again = new PGlite(dataDir);
    expect((await again.query<{ x: number }>('select x from kept')).rows).toEqual([{ x: 42 }]);
    await again.close();
  });

  it('is the same cluster initdb makes: same server version, databases and roles', async () => {
    const fromCluster = new PGlite(await clusterOptions(PGlite, null));
    const fromInitdb = new PGlite();
    const describe = async (db: PGlite) => ({
      version: (await db.query<{ v: string }>('select version() as v')).rows[0].v,
      databases: (await db.query<{ datname: string }>('select datname from pg_database order by datname')).rows,
      roles: (await db.query<{ rolname: string }>("select rolname from pg_roles where rolname not like 'pg\\_%' order by rolname")).rows,
      encoding: (await db.query<{ e: string }>('show server_encoding')).rows[0],
    });
    expect(await describe(fromCluster)).toEqual(await describe(fromInitdb));
    await Promise.all([fromCluster.close(), fromInitdb.close()]);
  });
});
