// What the installed webR brings: its R version (which names the repository's contrib directory)
// and the packages of its base library (never fetched: library() finds them installed).
import fs from 'node:fs';
import path from 'node:path';
import { webrDir } from '../webr-assets.mjs';

/** webR declares its R version in its typings (src/webR/config.ts: R_VERSION); the package exports no value for it. */
export function webrRVersion(dir = webrDir) {
  const file = path.join(dir, 'webR', 'config.d.ts');
  const match = /\bR_VERSION\s*=\s*"(\d+\.\d+\.\d+)"/.exec(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  if (!match) throw new Error(`cannot tell webR's R version from ${file}; pass --r-version`);
  return match[1];
}

/**
 * The base library webR ships (vfs/usr/lib/R/library): a directory per package, or a filesystem
 * image (`<name>.js.metadata`) mounted there at start. The same names installed.packages() lists
 * in a fresh webR.
 */
export function webrBasePackages(dir = webrDir) {
  const library = path.join(dir, 'vfs', 'usr', 'lib', 'R', 'library');
  if (!fs.existsSync(library)) throw new Error(`webR's base library is not at ${library}; is webr installed (npm ci)?`);
  const names = new Set();
  for (const entry of fs.readdirSync(library, { withFileTypes: true })) {
    if (entry.isDirectory()) names.add(entry.name);
    else if (entry.name.endsWith('.js.metadata')) names.add(entry.name.slice(0, -'.js.metadata'.length));
  }
  return names;
}
