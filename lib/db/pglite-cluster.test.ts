import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbedded } from './pglite-cluster';

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-cluster-'));
  dirs.push(dir);
  return path.join(dir, 'pglite');
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const keptCluster = () => {
  const version = (JSON.parse(fs.readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')) as { version: string }).version;
  return path.join('node_modules', '.cache', 'runpad', `pglite-${version}-cluster.tar`);
};

describe('a new embedded database starts from the kept fresh cluster', () => {
  it('without a kept cluster, initdb runs and its result is kept; the next fresh database starts from it and keeps what is written', async () => {
    fs.rmSync(keptCluster(), { force: true });
    const first = await openEmbedded(PGlite, dataDir());
    await first.close();
    expect(fs.statSync(keptCluster()).size).toBeGreaterThan(0);

    const dir = dataDir();
    const fromKept = await openEmbedded(PGlite, dir);
    await fromKept.exec('create table kept (x int); insert into kept values (42);');
    await fromKept.close();
    // Now it holds a cluster: it is opened as is, nothing loaded over it.
    const again = await openEmbedded(PGlite, dir);
    expect((await again.query<{ x: number }>('select x from kept')).rows).toEqual([{ x: 42 }]);
    await again.close();
  });

  it('is the same cluster initdb makes: same server version, databases and roles', async () => {
    const fromCluster = await openEmbedded(PGlite, null);
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
