/**
 * The SQL target's runner (browser-only). For now SQL runs in the conversation's Python
 * interpreter (SQLite through the standard library), sharing its state, ledger and restarts.
 */
import { InterpreterRunner } from '../python/runner';
import type { TargetRunner } from '../runner';
import type { RunnerEnv } from '../runner-env';

export function createSqlRunner(env: RunnerEnv): TargetRunner {
  return new InterpreterRunner(env.interpreter(), 'sql');
}
