/**
 * The page's side of each target, one line per target (browser-only; the server-safe list is
 * registry.ts): its runner's factory and the post-processing step it declares for every run's
 * result (DOT drawn by the Graphviz target). The `Record<TargetId, …>` makes a target without its
 * line a type error. Below it, the engines targets declare (one line each), which the runs
 * controller (runs.client.ts) makes with the page.
 */
import 'client-only';
import { drawDotOutputs } from './graphviz/dot-outputs.client';
import { createGraphvizRunner } from './graphviz/runner.client';
import { createJavaScriptRunner } from './javascript/runner.client';
import { pythonEngine } from './python/engine.client';
import { createPythonRunner } from './python/runner.client';
import { createRRunner } from './r/runner.client';
import type { TargetId } from './registry';
import type { PostProcessStep, RunnerSource, TargetRunner } from './runner';
import type { RunnerEnv } from './runner-env';
import type { EngineDeclaration } from './engine';
import { createSqlRunner } from './sql/runner.client';

export type RunnerFactory = (env: RunnerEnv) => TargetRunner;

export type BrowserTarget = { create: RunnerFactory; postProcess?: PostProcessStep };

export const BROWSER_TARGETS: Record<TargetId, BrowserTarget> = {
  python: { create: createPythonRunner },
  sql: { create: createSqlRunner },
  graphviz: { create: createGraphvizRunner, postProcess: drawDotOutputs },
  r: { create: createRRunner },
  javascript: { create: createJavaScriptRunner },
};

/** The engines the page makes with itself, whose status it shows (Python's kernel, which SQL shares). */
export const ENGINES: readonly EngineDeclaration[] = [
  pythonEngine,
];

/** One page's runners, each made on its target's first run (a diagram worker only when drawn). */
export class RunnerSet implements RunnerSource {
  private readonly runners = new Map<TargetId, TargetRunner>();

  constructor(
    private readonly env: RunnerEnv,
    private readonly targets: Record<TargetId, BrowserTarget> = BROWSER_TARGETS,
  ) {}

  postProcessSteps(): PostProcessStep[] {
    return Object.values(this.targets).flatMap((target) => (target.postProcess ? [target.postProcess] : []));
  }

  get(id: TargetId): TargetRunner {
    let runner = this.runners.get(id);
    if (!runner) {
      runner = this.targets[id].create(this.env);
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
