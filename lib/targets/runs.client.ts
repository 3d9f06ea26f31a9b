/**
 * The runs controller (browser-only): the one thing the page shell talks to about running code
 * (the chat, restore and the share page's re-run alike). It makes the engines targets declare
 * (ENGINES, lib/targets/runners.client.ts) with the page, and the runners on their target's first
 * run (RunnerSet), and answers for them all: status, start, interrupt, restart, dispose. It names
 * no target.
 */
import 'client-only';
import type { Engine, EngineDeclaration, EngineStart, EngineStatus, TargetConfig } from './engine';
import type { TargetId } from './registry';
import type { PostProcessStep, RunnerSource, TargetRunner } from './runner';
import { BROWSER_TARGETS, ENGINES, RunnerSet, type BrowserTarget } from './runners.client';

/** Where runs go before the page has made its controller (its first effect): nowhere yet. */
export const NO_RUNNERS: RunnerSource = {
  get() {
    throw new Error('the engines have not started');
  },
};

export class RunsController implements RunnerSource {
  private readonly engines = new Map<EngineDeclaration, Engine>();
  private readonly runners: RunnerSet;
  private readonly listeners = new Set<() => void>();
  private statusesValue: readonly EngineStatus[] = [];
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly config: TargetConfig,
    private readonly startWhen: EngineStart = 'now',
    declarations: readonly EngineDeclaration[] = ENGINES,
    targets: Record<TargetId, BrowserTarget> = BROWSER_TARGETS,
  ) {
    for (const declaration of declarations) this.engine(declaration);
    this.runners = new RunnerSet({ engine: (declaration) => this.engine(declaration), config }, targets);
  }

  /** The page's engine of this declaration, made on first ask (the listed ones with the page). */
  private engine<E extends Engine, Field extends keyof TargetConfig>(declaration: EngineDeclaration<E, Field>): E {
    const key = declaration as unknown as EngineDeclaration;
    let engine = this.engines.get(key);
    if (!engine) {
      engine = declaration.create(this.config, this.startWhen);
      this.engines.set(key, engine);
      this.unsubscribe.push(engine.subscribe(() => this.changed()));
      this.changed();
    }
    return engine as E;
  }

  private changed(): void {
    this.statusesValue = [...this.engines].map(([declaration, engine]) => ({ name: declaration.name, state: engine.state }));
    for (const listener of this.listeners) listener();
  }

  get(id: TargetId): TargetRunner {
    return this.runners.get(id);
  }

  postProcessSteps(): PostProcessStep[] {
    return this.runners.postProcessSteps();
  }

  /** Each engine's name and state, the same array until one changes (for the status UI). */
  statuses(): readonly EngineStatus[] {
    return this.statusesValue;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether every engine is still the one the page opened with (restore may run by itself only then). */
  fresh(): boolean {
    return [...this.engines.values()].every((engine) => engine.generation === 0);
  }

  /** Starts the engines that have not started (the person typing, Start). */
  startEngines(): void {
    for (const engine of this.engines.values()) engine.start();
  }

  /** Interrupts every engine's running cell (Stop). */
  interrupt(): void {
    for (const engine of this.engines.values()) engine.stop();
  }

  /** Fresh engines: their state is lost (Restart). */
  restart(): void {
    for (const engine of this.engines.values()) engine.restart();
  }

  dispose(): void {
    this.runners.dispose();
    for (const stop of this.unsubscribe) stop();
    for (const engine of this.engines.values()) engine.dispose();
    this.engines.clear();
    this.listeners.clear();
  }
}
