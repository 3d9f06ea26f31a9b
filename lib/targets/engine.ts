/**
 * What an engine is to the page (ARCHITECTURE.md, "Targets"): a long-lived interpreter a target
 * declares in its own folder (Python's kernel, `lib/targets/python/engine.client.ts`), made and
 * driven by the runs controller (lib/targets/runs.client.ts). Server-safe: types and the words the
 * status shows, naming no target.
 */
import { CLIENT_CONFIG_FIELDS, type ClientConfig } from '@/lib/client-config';

/**
 * The configuration the targets read (the client configuration's fields given as they are). A
 * target's engine names the fields it reads (`EngineDeclaration.configFields`).
 */
export type TargetConfig = Pick<ClientConfig, (typeof CLIENT_CONFIG_FIELDS)[number]>;

/** The configuration's fields the targets read, out of the page's whole configuration. */
export function targetConfigOf(config: TargetConfig): TargetConfig {
  return Object.fromEntries(CLIENT_CONFIG_FIELDS.map((field) => [field, config[field]])) as TargetConfig;
}

/**
 * When an engine starts: with the page (a new conversation, where a question is coming), or
 * when something first needs it (a stored conversation opened to be read: a run, a restore, the
 * person typing), so that reading costs no download and no start.
 */
export type EngineStart = 'now' | 'when-needed';

/** Where an engine is in starting. */
export type StartPhase = 'downloading' | 'starting' | 'installing' | 'ready';

export type EngineState =
  /** Made with `start: 'when-needed'` and nothing has needed it yet: no worker, nothing downloaded. */
  | { kind: 'not-started' }
  | { kind: 'starting'; phase: StartPhase; restarted: boolean }
  | { kind: 'ready'; restarted: boolean }
  | { kind: 'busy' }
  | { kind: 'failed'; message: string };

/** An engine as the controller drives it: status, start, interrupt, restart. */
export interface Engine {
  readonly state: EngineState;
  /** 0 for the engine the page started with; +1 for each replacement (restart, limits). */
  readonly generation: number;
  subscribe(listener: (state: EngineState) => void): () => void;
  /** Starts it if it has not started. */
  start(): void;
  /** Interrupts the running cell (Stop). */
  stop(): void;
  /** A fresh engine: state is lost. */
  restart(): void;
  dispose(): void;
}

/** A target's engine: the configuration it reads, how it is made, the name its status shows. */
export type EngineDeclaration<E extends Engine = Engine, Field extends keyof TargetConfig = keyof TargetConfig> = {
  /** The name the page's status shows ("Python ready"). */
  name: string;
  configFields: readonly Field[];
  create: (config: Pick<TargetConfig, Field>, start: EngineStart) => E;
};

/** One engine's status, for the status UI (components/chat/kernel-status.tsx). */
export type EngineStatus = { name: string; state: EngineState };

/** The state an engine shows before the page has made it. */
export function stateBefore(start: EngineStart): EngineState {
  return start === 'now' ? { kind: 'starting', phase: 'downloading', restarted: false } : { kind: 'not-started' };
}
