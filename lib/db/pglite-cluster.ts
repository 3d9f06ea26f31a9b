/**
 * A new embedded database starts from a copy of a fresh PGlite cluster instead of running initdb:
 * initdb in wasm costs ~2.5 s of CPU, loading its result ~0.5 s. Every fresh data directory gets
 * the same bytes initdb would write (PGlite's own cluster, same version); our migrations still run
 * on it as on any database. The copy is made once per PGlite version by the first process that
 * needs it and kept in the project's `node_modules/.cache/runpad/` (the user's own directory, not a
 * shared temporary one that another user could write). Where it cannot be made or read, the
 * database is created as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

const CACHE_DIR = () => path.join(process.cwd(), 'node_modules', '.cache', 'runpad');

function pgliteVersion(): string | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' && /^[\w.-]+$/.test(manifest.version) ? manifest.version : null;
  } catch {
    return null;
  }
}

/** Whether `dataDir` holds no cluster yet (initdb would run). */
function isFresh(dataDir: string | null): boolean {
  return dataDir === null || !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
}

/** The fresh cluster's bytes for this PGlite version, made and kept on first use; null if that fails. */
async function freshCluster(Pglite: typeof PGlite): Promise<Blob | null> {
  const version = pgliteVersion();
  if (!version) return null;
  const file = path.join(CACHE_DIR(), `pglite-${version}-cluster.tar`);
  try {
    return new Blob([await fs.promises.readFile(file)]);
  } catch {
    // not made yet: make it below
  }
  try {
    const pristine = new Pglite();
    await pristine.waitReady;
    const tarball = await pristine.dumpDataDir('none');
    await pristine.close();
    const bytes = new Uint8Array(await tarball.arrayBuffer());
    fs.mkdirSync(CACHE_DIR(), { recursive: true });
    // Written whole under another name, then renamed: a process reading it never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await fs.promises.writeFile(partial, bytes);
    await fs.promises.rename(partial, file);
    return new Blob([bytes]);
  } catch {
    return null; // a read-only install: initdb as before
  }
}

/** PGlite's options for `dataDir` (null: in memory): a fresh one starts from the kept cluster. */
export async function clusterOptions(Pglite: typeof PGlite, dataDir: string | null): Promise<PGliteOptions> {
  if (!isFresh(dataDir)) return {};
  const cluster = await freshCluster(Pglite);
  return cluster ? { loadDataDir: cluster } : {};
}
