// Copies Pyodide's core files from node_modules into public/pyodide/<version>/ (served by the app
// itself, under a versioned path so they can be cached as immutable).
// Skips files that are already identical in size and not older, so it is cheap to run every time.
import fs from 'node:fs';
import path from 'node:path';
import { CORE_FILES, pyodideDir, pyodideVersion } from './pyodide-assets.mjs';

const target = path.resolve('public/pyodide', pyodideVersion);
fs.mkdirSync(target, { recursive: true });

let copied = 0;
for (const name of CORE_FILES) {
  const from = path.join(pyodideDir, name);
  const to = path.join(target, name);
  const src = fs.statSync(from);
  const dst = fs.existsSync(to) ? fs.statSync(to) : null;
  if (dst && dst.size === src.size && dst.mtimeMs >= src.mtimeMs) continue;
  fs.copyFileSync(from, to);
  copied += 1;
}
console.log(`pyodide ${pyodideVersion}: ${copied} file(s) copied to public/pyodide/${pyodideVersion}/`);
