import 'client-only';
import type { PackageFailure } from './worker-api.client';
import type { RunResult } from '@/lib/runtime/protocol';
import { failedRun } from '@/lib/runtime/failed-run';

/**
 * A failed package load is a `package-unavailable` run failure (lib/runtime/run-failure.ts): an
 * error in words a user understands; where it failed (the URLs) and what an operator can do are in
 * the traceback, shown on demand. What the model should do about it (not retry, use the standard
 * library) is in its system prompt, not in the user's face.
 */
export function packageFailureResult(failed: PackageFailure[], durationMs: number): RunResult {
  return failedRun({ kind: 'package-unavailable', engine: 'Python', packages: failed.map((f) => ({ name: f.name, url: f.url.slice(0, 2_000), detail: f.message.slice(0, 2_000) })) }, durationMs);
}
