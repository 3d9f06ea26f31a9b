/**
 * Python's engine, as the runs controller makes it (lib/targets/runs.client.ts): the
 * conversation's interpreter (the kernel), at the locations the configuration names, its URLs made
 * absolute for the worker. Python and SQL both run in it (`env.engine(pythonEngine)`).
 */
import 'client-only';
import { Kernel } from './kernel.client';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { pythonWorkerUrl } from './worker-url';
import type { EngineDeclaration } from '../engine';

export const pythonEngine: EngineDeclaration<Kernel, 'pyodideIndexPath' | 'packageBaseUrl' | 'packageLockUrl' | 'duckdbAssetPath' | 'duckdbExtensionUrl'> = {
  name: 'Python',
  configFields: ['pyodideIndexPath', 'packageBaseUrl', 'packageLockUrl', 'duckdbAssetPath', 'duckdbExtensionUrl'],
  create: ({ pyodideIndexPath, packageBaseUrl, packageLockUrl, duckdbAssetPath, duckdbExtensionUrl }, start) =>
    new Kernel(
      {
        workerUrl: pythonWorkerUrl({ pyodideIndexPath, packageBaseUrl, packageLockUrl }),
        indexURL: new URL(pyodideIndexPath, window.location.origin).href,
        packageBaseUrl: new URL(packageBaseUrl, window.location.origin).href,
        packageLockUrl: new URL(packageLockUrl, window.location.origin).href,
        caps: OUTPUT_CAPS,
        duckdb: { assetUrl: new URL(duckdbAssetPath, window.location.origin).href, extensionRepository: duckdbExtensionUrl },
      },
      start,
    ),
};

const IMPORT_LINE = /^\s*(?:import\s+[\w.]+(?:\s*,\s*[\w.]+)*|from\s+[\w.]+\s+import\b.*)/;

/** The complete import lines of code that may still be streaming in. */
export function completeImportLines(code: string): string[] {
  const complete = code.slice(0, code.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => IMPORT_LINE.test(line))
    .map((line) => line.trim());
}
