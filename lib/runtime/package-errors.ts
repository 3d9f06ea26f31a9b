import type { PackageFailure } from './worker-api';
import type { RunResult } from './protocol';

/** A failed package load becomes an error the user and the model can act on. */
export function packageFailureResult(failed: PackageFailure[], durationMs: number): RunResult {
  const names = failed.map((f) => f.name).join(', ');
  const lines = failed.map((f) => `  ${f.name}: ${f.url} (${f.message})`);
  const evalue =
    `Could not load ${names}: it could not be fetched from the package source.\n` +
    `${lines.join('\n')}\n` +
    'Remedy: an administrator can run `npm run pyodide:mirror` to self-host the packages. ' +
    'Do not retry the same import; use the standard library instead.';
  return {
    status: 'error',
    durationMs,
    outputs: [{ output_type: 'error', ename: 'PackageLoadError', evalue, traceback: [`PackageLoadError: ${evalue}`] }],
  };
}
