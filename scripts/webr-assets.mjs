// Where webR's files come from and where the app serves them (like pyodide-assets.mjs): shared by
// the copy script and the server config, so the version is written down once (package-lock).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

// webr's `exports` hides package.json; its main entry sits in dist/.
export const webrDir = path.dirname(require.resolve('webr'));
export const webrVersion = JSON.parse(fs.readFileSync(path.join(webrDir, '..', 'package.json'), 'utf8')).version;
/**
 * What R needs at run time: the worker, R's wasm build with its Emscripten loader, BLAS/LAPACK,
 * and `vfs/` (the base library and fonts, fetched on demand). The REPL, tests, webR's main-thread
 * library (bundled into lib/targets/r/engine/r.worker.ts instead) and source maps are left out.
 */
export const RUNTIME_ENTRIES = ['webr-worker.js', 'R.js', 'R.wasm', 'libRblas.so', 'libRlapack.so', 'vfs'];
