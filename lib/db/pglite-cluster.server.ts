/**
 * A new embedded database starts from a copy of a fresh PGlite cluster instead of running initdb:
 * initdb in wasm costs ~2.5 s of CPU, loading its result ~0.5 s. Every fresh data directory gets
 * the same bytes initdb would write (PGlite's own cluster, same version); our migrations still run
 * on it as on any database. The copy is kept once per PGlite version by the first process that
 * runs initdb, in the project's `node_modules/.cache/runpad/` (the user's own directory, not a
 * shared temporary one that another user could write). Where it cannot be made or read, the
 * database is created as before.
 */
import 'server-only';
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

/** Where this PGlite version's fresh cluster is kept in `cacheDir`; null if the version cannot be read. */
export function clusterFile(cacheDir: string = CACHE_DIR()): string | null {
  const version = pgliteVersion();
  return version ? path.join(cacheDir, `pglite-${version}-cluster.tar`) : null;
}

/** Keeps a just-initialised database's cluster for the next fresh one; a failure only costs that. */
async function keepCluster(client: PGlite, file: string): Promise<void> {
  try {
    const bytes = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written whole under another name, then renamed: a process reading it never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await fs.promises.writeFile(partial, bytes);
    await fs.promises.rename(partial, file);
  } catch {
    // A read-only install: every fresh database runs initdb, as it would without the copy.
  }
}

/**
 * The embedded database at `dataDir` (null: in memory), before migrations. A fresh one starts
 * from the cluster kept in `cacheDir` (the project's, unless a test keeps its own); without one,
 * initdb runs and its result is kept for the next.
 */
export async function openEmbedded(Pglite: typeof PGlite, dataDir: string | null, cacheDir: string = CACHE_DIR()): Promise<PGlite> {
  const open = (options: PGliteOptions) => (dataDir ? new Pglite(dataDir, options) : new Pglite(options));
  const file = isFresh(dataDir) ? clusterFile(cacheDir) : null;
  if (!file) return open({});
  const kept = await fs.promises.readFile(file).catch(() => null);
  if (kept) return open({ loadDataDir: new Blob([kept]) });
  const client = open({});
  await client.waitReady;
  await keepCluster(client, file);
  return client;
}
