// Writes a Brotli (.br) and a gzip (.gz) copy beside each engine file the app serves itself
// (lib/assets/: the roots of engine-asset-roots.json under public/), so no request compresses them
// again. A copy is written only when it saves at least a tenth of the bytes, and only when its
// file changed (an unchanged copy keeps its modification time, as scripts/start.mjs expects of
// every asset). Brotli at quality 5: a fifth
// smaller than gzip for pyodide.asm.wasm and duckdb-eh.wasm at about gzip's cost (~2 s in all).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// The same list the server answers from.
const ROOTS = JSON.parse(fs.readFileSync(new URL('../lib/assets/engine-asset-roots.json', import.meta.url), 'utf8')).map(({ prefix, depth }) => ({ dir: path.join('public', prefix), depth }));
const COMPRESSIBLE = /\.(wasm|mjs|js|json|so|bin)$/;
const MIN_BYTES = 1024;
const ENCODERS = [
  { suffix: '.br', encode: (bytes) => zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }) },
  { suffix: '.gz', encode: (bytes) => zlib.gzipSync(bytes, { level: 6 }) },
];

/** Files `depth` levels below `dir` (1: its own files), never a precompressed copy. */
function filesUnder(dir, depth) {
  if (!fs.existsSync(dir)) return [];
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth > 1) found.push(...filesUnder(full, depth - 1));
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) found.push(full);
  }
  return found;
}

let written = 0;
let kept = 0;
for (const { dir, depth } of ROOTS) {
  for (const file of filesUnder(dir, depth)) {
    const source = fs.statSync(file);
    for (const { suffix, encode } of ENCODERS) {
      const copy = file + suffix;
      const existing = fs.existsSync(copy) ? fs.statSync(copy) : null;
      if (existing && existing.mtimeMs >= source.mtimeMs) {
        kept += 1;
        continue;
      }
      const bytes = source.size >= MIN_BYTES ? encode(fs.readFileSync(file)) : null;
      if (bytes && bytes.length <= source.size * 0.9) {
        fs.writeFileSync(copy, bytes);
        written += 1;
      } else if (existing) {
        fs.rmSync(copy); // no longer worth it: the file is served as it is
      }
    }
  }
}
console.log(`precompress: ${written} copy(ies) written, ${kept} current`);
