// Writes an esbuild result's files (built with `write: false`), each only when its bytes changed:
// an unchanged asset keeps its modification time, so `npm start` (which runs the asset scripts and
// compares their outputs' times with the build's, scripts/start.mjs) does not take a current build
// for a stale one.
import fs from 'node:fs';
import path from 'node:path';

export function writeOutputs(result) {
  let written = 0;
  for (const file of result.outputFiles) {
    const old = fs.existsSync(file.path) ? fs.readFileSync(file.path) : null;
    if (old && Buffer.compare(old, Buffer.from(file.contents)) === 0) continue;
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    fs.writeFileSync(file.path, file.contents);
    written += 1;
  }
  return written;
}
