/**
 * A run's result made from a failure, and a failure read back from a result: where a failure
 * (lib/runtime/run-failure.ts) meets the output protocol (lib/runtime/protocol.ts), which itself
 * carries failures; kept apart from both so neither imports the other. Shared, zod-free.
 */
import type { ErrorOutput, Output, RunResult, RunStatus } from './protocol';
import { clip, codeWords, failureForPerson, losesState, type RunFailure } from './run-failure';

/** The status a run that ended with this failure has. */
export function statusOfFailure(failure: RunFailure): RunStatus {
  switch (failure.kind) {
    case 'time-limit':
      return 'timeout';
    case 'interrupted':
      return 'interrupted';
    case 'crashed':
      return 'crashed';
    case 'page-closed':
      return 'page-closed';
    default:
      return 'error';
  }
}

/**
 * The code's own error, a package that could not load and a call without code are the protocol's
 * `error` output (Jupyter's, so notebooks keep them); every other failure is listed in `failures`.
 */
export function failureAsErrorOutput(failure: RunFailure): ErrorOutput | null {
  switch (failure.kind) {
    case 'code':
      return { output_type: 'error', ename: failure.ename, evalue: codeWords(failure), traceback: [] };
    case 'package-unavailable':
      return {
        output_type: 'error',
        ename: 'PackageLoadError',
        evalue: failureForPerson(failure),
        traceback: [
          `PackageLoadError: ${failureForPerson(failure)}`,
          ...failure.packages.map((p) => `  ${p.name}: ${p.url ?? ''} (${p.detail ?? 'unavailable'})`),
          'An administrator can self-host the packages with `npm run mirror -- python`.',
        ],
      };
    case 'input-invalid':
      return { output_type: 'error', ename: 'InvalidToolInput', evalue: failureForPerson(failure), traceback: [] };
    default:
      return null;
  }
}

/** A run that ended with `failure`: its status, its error output or its listed failure, and whether state was lost. */
export function failedRun(failure: RunFailure, durationMs: number, outputs: readonly Output[] = []): RunResult {
  const error = failureAsErrorOutput(failure);
  return {
    status: statusOfFailure(failure),
    durationMs,
    outputs: error ? [...outputs, error] : [...outputs],
    ...(error ? {} : { failures: [failure] }),
    ...(losesState(failure) ? { restarted: true } : {}),
  };
}

/**
 * How a finished run failed, for a step that runs code for another run (DOT drawn for Python's
 * output): its first listed failure, else its error output as the code's own error, else null.
 */
export function failureOfResult(result: RunResult, engine: string): RunFailure | null {
  if (result.failures?.length) return result.failures[0];
  const error = result.outputs.find((output) => output.output_type === 'error');
  if (error?.output_type === 'error') return { kind: 'code', engine, ename: clip(error.ename, 200) || 'Error', evalue: clip(error.evalue, 4_000) };
  return null;
}
