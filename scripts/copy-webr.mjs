// Copies webR's run-time files from node_modules into public/webr/<version>/ (served by the app
// itself under a versioned path, cached as immutable). Skips files already identical in size and
// not older, so it is cheap to run every time.
import fs from 'node:fs';
import path from 'node:path';
import { RUNTIME_ENTRIES, webrDir, webrVersion } from './webr-assets.mjs';

const target = path.resolve('public/webr', webrVersion);
let copied = 0;

function copy(from, to) {
  const src = fs.statSync(from);
  if (src.isDirectory()) {
    for (const name of fs.readdirSync(from)) copy(path.join(from, name), path.join(to, name));
    return;
  }
  const dst = fs.existsSync(to) ? fs.statSync(to) : null;
  if (dst && dst.size === src.size && dst.mtimeMs >= src.mtimeMs) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  copied += 1;
}

for (const entry of RUNTIME_ENTRIES) copy(path.join(webrDir, entry), path.join(target, entry));
console.log(`webr ${webrVersion}: ${copied} file(s) copied to public/webr/${webrVersion}/`);
