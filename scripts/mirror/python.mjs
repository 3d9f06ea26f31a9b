// `npm run mirror -- python [packages…]` (also `npm run pyodide:mirror`): self-hosts Pyodide
// packages for air-gapped installs. Resolves the packages and their dependencies from
// pyodide-lock.json, downloads each wheel from the package source, verifies its sha256 against the
// lock file, and only then replaces the mirror (public/pyodide-mirror/ by default), with a copy of
// the lock file. Any failure leaves no half-written mirror.
import fs from 'node:fs';
import path from 'node:path';
import { officialPackageBaseUrl, pyodideDir } from '../pyodide-assets.mjs';
import { downloadTo } from './fetch.mjs';
import { replaceAtomically } from './replace.mjs';

export const DEFAULT_PACKAGES = ['numpy', 'pandas', 'matplotlib'];
export const DEFAULT_OUT = 'public/pyodide-mirror';
export const DEFAULT_SOURCE = officialPackageBaseUrl;
export const DEFAULT_LOCK = path.join(pyodideDir, 'pyodide-lock.json');

/** The packages asked for and everything they depend on, from the lock file. */
export function resolvePackages(lock, names) {
  const byName = new Map(Object.entries(lock.packages).map(([key, pkg]) => [key.toLowerCase(), pkg]));
  const wanted = new Map();
  const visit = (name) => {
    const pkg = byName.get(name.toLowerCase());
    if (!pkg) throw new Error(`"${name}" is not in the lock file`);
    if (wanted.has(pkg.name)) return;
    wanted.set(pkg.name, pkg);
    for (const dependency of pkg.depends ?? []) visit(dependency);
  };
  for (const name of names) visit(name);
  return [...wanted.values()];
}

export async function mirror({ source = DEFAULT_SOURCE, out = DEFAULT_OUT, lock: lockFile = DEFAULT_LOCK, packages = DEFAULT_PACKAGES, log = () => {} }) {
  const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
  const resolved = resolvePackages(lock, packages.length > 0 ? packages : DEFAULT_PACKAGES);
  const base = source.endsWith('/') ? source : `${source}/`;
  const target = path.resolve(out);
  // Replacing is wholesale: never a directory this command did not write (a mistyped --out).
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0 && !fs.existsSync(path.join(target, 'pyodide-lock.json'))) {
    throw new Error(`${target} exists and is not a Pyodide mirror (no pyodide-lock.json); move it away or choose another --out`);
  }
  return replaceAtomically(target, async (staging) => {
    let total = 0;
    for (const pkg of resolved) {
      const url = new URL(pkg.file_name, base).href;
      total += (await downloadTo(url, path.join(staging, path.basename(pkg.file_name)), { sha256: pkg.sha256 })).bytes;
      log(`  ✓ ${pkg.name} ${pkg.version}`);
    }
    fs.copyFileSync(lockFile, path.join(staging, 'pyodide-lock.json'));
    return { packages: resolved.map((p) => p.name), bytes: total, out: target };
  });
}
