/**
 * The page's runners, one line per target (browser-only; the server-safe list is registry.ts).
 * The `Record<TargetId, …>` makes a target without its runner line a type error.
 */
import { createGraphvizRunner } from './graphviz/graphviz-runner';
import { createPythonRunner } from './python/runner';
import { createRRunner } from './r/r-runner';
import type { TargetId } from './registry';
import type { TargetRunner } from './runner';
import type { RunnerEnv } from './runner-env';
import { createSqlRunner } from './sql/runner';

export type RunnerFactory = (env: RunnerEnv) => TargetRunner;

const RUNNER_FACTORIES: Record<TargetId, RunnerFactory> = {
  python: createPythonRunner,
  sql: createSqlRunner,
  graphviz: createGraphvizRunner,
  r: createRRunner,
};

/** Where the pipeline finds a target's runner. */
export type RunnerSource = { get(id: TargetId): TargetRunner };

/** One page's runners, each made on its target's first run (a diagram worker only when drawn). */
export class RunnerSet implements RunnerSource {
  private readonly runners = new Map<TargetId, TargetRunner>();

  constructor(
    private readonly env: RunnerEnv,
    private readonly factories: Record<TargetId, RunnerFactory> = RUNNER_FACTORIES,
  ) {}

  get(id: TargetId): TargetRunner {
    let runner = this.runners.get(id);
    if (!runner) {
      runner = this.factories[id](this.env);
      this.runners.set(id, runner);
    }
    return runner;
  }

  /** The runners made so far. */
  created(): TargetRunner[] {
    return [...this.runners.values()];
  }

  dispose(): void {
    for (const runner of this.runners.values()) runner.dispose();
    this.runners.clear();
  }
}
