// Bundles workers/*.worker.ts into public/workers/*.mjs as module workers (see ARCHITECTURE.md,
// "Worker build"). webR's main-thread library is bundled into workers/r.worker.ts. The Python package under workers/python/ is embedded as a map of
// path → source, written into Pyodide's filesystem when the worker starts.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { writeOutputs } from './write-outputs.mjs';

const root = path.resolve('.');
const pythonRoot = path.join(root, 'workers/python');

function listPythonFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__pycache__' ? [] : listPythonFiles(full);
    return entry.name.endsWith('.py') ? [full] : [];
  });
}

const pythonSourcesPlugin = {
  name: 'python-sources',
  setup(build) {
    build.onResolve({ filter: /^virtual:python-sources$/ }, () => ({ path: 'python-sources', namespace: 'python' }));
    build.onLoad({ filter: /.*/, namespace: 'python' }, () => {
      const files = Object.fromEntries(
        listPythonFiles(pythonRoot).map((file) => [path.relative(pythonRoot, file), fs.readFileSync(file, 'utf8')]),
      );
      return { contents: `export default ${JSON.stringify(files)};`, loader: 'js', watchFiles: listPythonFiles(pythonRoot) };
    });
  },
};

const entryPoints = fs
  .readdirSync(path.join(root, 'workers'))
  .filter((name) => name.endsWith('.worker.ts'))
  .map((name) => path.join(root, 'workers', name));

const result = await esbuild.build({
  entryPoints,
  write: false,
  outdir: path.join(root, 'public/workers'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // Always minified: the worker script is on the cold-start path (the source map keeps it debuggable).
  minify: true,
  sourcemap: true,
  external: ['/pyodide/*'],
  plugins: [pythonSourcesPlugin],
  // R's side of the R target (lib/targets/r/capture.R) is embedded as text.
  loader: { '.R': 'text' },
  alias: { '@': root },
  logLevel: 'warning',
});
console.log(`workers: ${entryPoints.length} bundled into public/workers/ (${writeOutputs(result)} file(s) changed)`);
