/**
 * What a page gives the runners it makes (browser-only), naming no target: the configuration the
 * targets read, and the engines targets may share, each made once per page by the runs controller
 * (lib/targets/runs.client.ts) from its target's declaration (Python's kernel, which Python and
 * SQL both run in: `env.engine(pythonEngine)`).
 */
import type { Engine, EngineDeclaration, TargetConfig } from './engine';

export type RunnerEnv = {
  /** The page's engine of this declaration (one per conversation or share re-run), made with the page. */
  engine: <E extends Engine, Field extends keyof TargetConfig>(declaration: EngineDeclaration<E, Field>) => E;
  config: TargetConfig;
};
