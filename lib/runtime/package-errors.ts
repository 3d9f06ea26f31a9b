import type { PackageFailure } from './worker-api';
import type { RunResult } from './protocol';

/**
 * A failed package load becomes an error in words a user understands; where it failed (the URLs)
 * and what an operator can do are in the traceback, shown on demand. What the model should do
 * about it (not retry, use the standard library) is in its system prompt, not in the user's face.
 */
export function packageFailureResult(failed: PackageFailure[], durationMs: number): RunResult {
  const names = failed.map((f) => f.name).join(', ');
  const evalue = `Could not load ${names}: ${failed.length > 1 ? 'they' : 'it'} could not be downloaded from the package source.`;
  const traceback = [
    `PackageLoadError: ${evalue}`,
    ...failed.map((f) => `  ${f.name}: ${f.url} (${f.message})`),
    'An administrator can self-host the packages with `npm run mirror -- python`.',
  ];
  return { status: 'error', durationMs, outputs: [{ output_type: 'error', ename: 'PackageLoadError', evalue, traceback }] };
}
