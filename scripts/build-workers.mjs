// Bundles every *.worker.ts under lib/ (each target's engine folder, lib/targets/<target>/engine/,
// and the dataset workers in lib/files/; scripts/engine-sources.mjs) into public/workers/*.mjs as
// module workers (see ARCHITECTURE.md, "Worker build"). webR's main-thread library is bundled into
// lib/targets/r/engine/r.worker.ts. The Python package under lib/targets/python/engine/runpad/ is
// embedded as a map of path → source, written into Pyodide's filesystem when the worker starts, with the name of the
// memory snapshot built from it (scripts/build-snapshot.mjs).
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pageScripts, PAGE_SCRIPT_SUFFIX, workerBuildOptions, workerScripts } from './engine-sources.mjs';
import { pyodideVersion } from './pyodide-assets.mjs';
import { listPythonFiles, pythonStart, readPythonSources, snapshotFileName } from './python-sources.mjs';
import { writeOutputs } from './write-outputs.mjs';

const root = path.resolve('.');

const pythonSourcesPlugin = {
  name: 'python-sources',
  setup(build) {
    build.onResolve({ filter: /^virtual:python-sources$/ }, () => ({ path: 'python-sources', namespace: 'python' }));
    build.onLoad({ filter: /.*/, namespace: 'python' }, () => {
      const sources = readPythonSources();
      return {
        contents: `export default ${JSON.stringify(sources)};\nexport const snapshotFileName = ${JSON.stringify(snapshotFileName(pyodideVersion, sources))};\nexport const pythonStart = ${JSON.stringify(pythonStart)};`,
        loader: 'js',
        watchFiles: listPythonFiles(),
      };
    });
  },
};

const entryPoints = workerScripts(root).map(([name, file]) => ({ in: path.join(root, file), out: name }));
// Modules a worker imports on first need, bundled beside the workers (their CSP allows /workers/):
// the offline readers for Parquet, JSON and Excel (lib/targets/sql/engine/offline-tables.ts).
const lazyModules = [{ in: path.join(root, 'lib/targets/sql/engine/offline-tables.ts'), out: 'offline-tables' }];

const result = await esbuild.build({
  ...workerBuildOptions(root),
  entryPoints: [...entryPoints, ...lazyModules],
  write: false,
  outdir: path.join(root, 'public/workers'),
  plugins: [pythonSourcesPlugin],
});
// The *.client.ts directly in an engine folder run in the page, beside the workers they start (the
// Python boot script, lib/targets/python/worker-url.ts): classic scripts (an async script tag
// cannot be a module and still skip the parser), served from the same directory as <name>.js.
const pageEntryPoints = Object.fromEntries(pageScripts(root).map(([name, file]) => [name, path.join(root, file)]));
// Every page asks for the Python boot script: a build without it answered each page load with a 404.
if (Object.keys(pageEntryPoints).length === 0) throw new Error(`build-workers: no page script (lib/targets/<target>/engine/*${PAGE_SCRIPT_SUFFIX}) found; the Python boot script would be missing`);
const pageResult = await esbuild.build({
  entryPoints: pageEntryPoints,
  write: false,
  outdir: path.join(root, 'public/workers'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  alias: { '@': root },
  logLevel: 'warning',
});
const changed = writeOutputs(result) + writeOutputs(pageResult);
console.log(`workers: ${entryPoints.length} workers, ${lazyModules.length} module(s) they load on need and ${Object.keys(pageEntryPoints).length} page script(s) bundled into public/workers/ (${changed} file(s) changed)`);
