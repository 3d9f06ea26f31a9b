// Where Pyodide's core files come from and where the app serves them. Shared by the copy script,
// the mirror script and the server config, so the version is never written down twice.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export const pyodideDir = path.dirname(require.resolve('pyodide/package.json'));
export const pyodideVersion = require('pyodide/package.json').version;
export const CORE_FILES = [
  'pyodide.mjs',
  'pyodide.asm.mjs',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
  'pyodide-lock.json',
];
export const officialPackageBaseUrl = `https://cdn.jsdelivr.net/pyodide/v${pyodideVersion}/full/`;
