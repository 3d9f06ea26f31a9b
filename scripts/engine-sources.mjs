// Where the engines' sources are, found by globbing (ARCHITECTURE.md, "Worker build"): each target
// keeps its engine in its own folder, lib/targets/<target>/engine/, and what the engines share is
// in lib/targets/shared/engine/. Read by the worker build (scripts/build-workers.mjs) and by the
// tests that keep the layout (tests/engines.test.ts, lib/security/csp.test.ts,
// tests/toy-target.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A worker script: bundled to public/workers/<name>.worker.mjs. */
export const WORKER_SUFFIX = '.worker.ts';
/** A page script an engine starts from (the Python boot script): bundled to public/workers/<name>.js. */
export const PAGE_SCRIPT_SUFFIX = '.client.ts';

const posix = (p) => p.split(path.sep).join('/');

/** The engine folders under `root` (repository-relative): each lib/targets/<target>/engine, lib/targets/shared/engine among them. */
export function engineFolders(root = repositoryRoot) {
  const targets = path.join(root, 'lib/targets');
  return fs
    .readdirSync(targets, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(targets, entry.name, 'engine')))
    .map((entry) => `lib/targets/${entry.name}/engine`)
    .sort();
}

/** Every file under `dir` (repository-relative, recursive), sorted; none under node_modules or __pycache__. */
function filesUnder(root, dir) {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => posix(path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name))))
    .filter((file) => !/(^|\/)(node_modules|__pycache__)\//.test(file))
    .sort();
}

/**
 * The worker scripts: every `*.worker.ts` under lib/ (the targets' engines, and the dataset workers
 * in lib/files/), as [name, repository path]; each name is its file's, so two with one name fail.
 */
export function workerScripts(root = repositoryRoot) {
  const found = filesUnder(root, 'lib').filter((file) => file.endsWith(WORKER_SUFFIX) && !/\.(test|spec)\./.test(file));
  return uniqueNames(found, (file) => path.posix.basename(file, '.ts'));
}

/** The page scripts: every `*.client.ts` directly in an engine folder, as [name, repository path]. */
export function pageScripts(root = repositoryRoot) {
  const found = engineFolders(root).flatMap((folder) => filesUnder(root, folder).filter((file) => path.posix.dirname(file) === folder && file.endsWith(PAGE_SCRIPT_SUFFIX)));
  return uniqueNames(found, (file) => path.posix.basename(file, PAGE_SCRIPT_SUFFIX));
}

/**
 * How a worker script is bundled (scripts/build-workers.mjs; the suite's toy target, tests/toy-target.test.ts):
 * an ES module worker, `@/` the repository at `root`.
 */
export function workerBuildOptions(root = repositoryRoot) {
  return {
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Always minified: the worker script is on the cold-start path (the source map keeps it debuggable).
    minify: true,
    sourcemap: true,
    external: ['/pyodide/*'],
    // R's side of the R target (lib/targets/r/capture.R) is embedded as text.
    loader: { '.R': 'text' },
    alias: { '@': root },
    logLevel: 'warning',
  };
}

function uniqueNames(files, nameOf) {
  const byName = new Map();
  for (const file of files) {
    const name = nameOf(file);
    if (byName.has(name)) throw new Error(`engine-sources: ${byName.get(name)} and ${file} would both be public/workers/${name}; rename one.`);
    byName.set(name, file);
  }
  return [...byName];
}
