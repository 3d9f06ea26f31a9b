// Our Python package (lib/targets/python/engine/runpad/) as the worker embeds it, and the name of the memory snapshot
// built from it (scripts/build-snapshot.mjs). Shared by the worker build and the snapshot build, so
// the name the worker asks for is the name the build wrote.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The folder that holds the package (runpad/): paths are relative to it, as Pyodide's file system has them. */
export const pythonRoot = path.join(root, 'lib/targets/python/engine');
const start = JSON.parse(fs.readFileSync(path.join(pythonRoot, 'python-start.json'), 'utf8'));
/**
 * How the interpreter is started (lib/targets/python/engine/interpreter.ts, scripts/build-snapshot.mjs): its
 * environment, where our package lives, and the preload a snapshot holds: the package on sys.path
 * and the modules of lib/targets/python/engine/python-start.json imported.
 */
export const pythonStart = {
  packageRoot: start.packageRoot,
  env: start.env,
  preload: [
    'import sys',
    `if ${JSON.stringify(start.packageRoot)} not in sys.path:`,
    `    sys.path.insert(0, ${JSON.stringify(start.packageRoot)})`,
    `import ${start.preloadModules.join(', ')}`,
    '',
  ].join('\n'),
};

export function listPythonFiles(dir = pythonRoot) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === '__pycache__' ? [] : listPythonFiles(full);
      return entry.name.endsWith('.py') ? [full] : [];
    });
}

/** Path (relative to lib/targets/python/engine/, e.g. runpad/kernel.py) → source, in a stable order. */
export function readPythonSources() {
  return Object.fromEntries(listPythonFiles().map((file) => [path.relative(pythonRoot, file), fs.readFileSync(file, 'utf8')]));
}

/** The snapshot's file name under public/pyodide/<version>/: it changes with everything baked in. */
export function snapshotFileName(pyodideVersion, sources = readPythonSources()) {
  const digest = crypto.createHash('sha256').update(JSON.stringify({ pyodideVersion, start: pythonStart, sources })).digest('hex');
  return `runpad-snapshot-${digest.slice(0, 20)}.bin`;
}
