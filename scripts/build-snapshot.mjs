// Builds the memory snapshot a first visit starts Python from (ARCHITECTURE.md, "Python start"):
// Pyodide, run here in Node from the same files the browser gets, with our package written where
// the worker writes it and imported, then its wasm memory saved to
// public/pyodide/<version>/runpad-snapshot-<digest>.bin. A browser restores it in ~0.5 s instead
// of initialising Python (~2 s on a 2-core machine). Skipped when that file already exists;
// older snapshots are removed.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pyodideDir, pyodideVersion } from './pyodide-assets.mjs';
import { pythonStart, readPythonSources, snapshotFileName } from './python-sources.mjs';

/** Pyodide started as the worker starts it, with the package written and the preload run. */
export async function buildSnapshot(sources = readPythonSources()) {
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, 'pyodide.mjs')).href);
  const py = await loadPyodide({ indexURL: `${pyodideDir}/`, env: pythonStart.env, _makeSnapshot: true, stdout: () => undefined, stderr: () => undefined });
  for (const [relative, source] of Object.entries(sources)) {
    const full = `${pythonStart.packageRoot}/${relative}`;
    py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    py.FS.writeFile(full, source);
  }
  py.runPython(pythonStart.preload);
  return py.makeMemorySnapshot();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = path.resolve('public/pyodide', pyodideVersion);
  const sources = readPythonSources();
  const name = snapshotFileName(pyodideVersion, sources);
  const target = path.join(dir, name);
  for (const old of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (old.startsWith('runpad-snapshot-') && !old.startsWith(name)) fs.rmSync(path.join(dir, old));
  }
  if (fs.existsSync(target)) {
    console.log(`snapshot: public/pyodide/${pyodideVersion}/${name} is current`);
  } else {
    try {
      const bytes = await buildSnapshot(sources);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(`${target}.tmp`, bytes);
      fs.renameSync(`${target}.tmp`, target); // never a half-written snapshot under the served name
      console.log(`snapshot: ${(bytes.byteLength / 1024 ** 2).toFixed(1)} MB written to public/pyodide/${pyodideVersion}/${name}`);
    } catch (error) {
      // The app works without it (a first visit then initialises Python in the browser): say so
      // loudly, and do not stop the build. The e2e suite fails when a first visit does not get it.
      console.warn(`snapshot: NOT BUILT, first visits will initialise Python in the browser (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}
