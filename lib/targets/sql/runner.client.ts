/**
 * The SQL target's runner (browser-only): the conversation's Python interpreter in SQL mode, where
 * DuckDB runs (lib/targets/sql/engine/), sharing its state, ledger and restarts. Starting it also starts
 * DuckDB, so the engine loads while the model is still writing its query.
 */
import 'client-only';
import { pythonEngine } from '../python/engine.client';
import { InterpreterRunner } from '../python/runner.client';
import type { TargetRunner } from '../runner';
import type { RunnerEnv } from '../runner-env';

export function createSqlRunner(env: RunnerEnv): TargetRunner {
  const kernel = env.engine(pythonEngine);
  const runner = new InterpreterRunner(kernel, 'sql');
  const start = runner.start.bind(runner);
  runner.start = () => {
    kernel.prefetchSql();
    return start();
  };
  return runner;
}
