// What the format benches share: the kept offline readers (lib/targets/sql/engine/offline-tables.ts)
// bundled for Node as the worker bundles them, a median and a timer.
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** [milliseconds, value] of one awaited task. */
export async function time(task) {
  const start = performance.now();
  const value = await task();
  return [performance.now() - start, value];
}

/** The offline readers, bundled into `dir` and imported. */
export async function loadOfflineReaders(dir) {
  const bundle = path.join(dir, 'offline-tables.mjs');
  await esbuild.build({ entryPoints: [path.join(root, 'lib/targets/sql/engine/offline-tables.ts')], outfile: bundle, bundle: true, format: 'esm', platform: 'node', alias: { '@': root }, logLevel: 'warning', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
  return import(bundle);
}
