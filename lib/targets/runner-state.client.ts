/**
 * What every page-side runner shares besides its engine (browser-only): the state it reports to
 * the page (`TargetRunner.state` and `subscribe`), and a worker connected on a private port — the
 * worker's global scope receives one `connect` message carrying the port, and everything after
 * goes over that port, so code the worker runs cannot reach the page through `postMessage`.
 */
import 'client-only';
import type { RunnerState } from './runner';

/** A runner's current state and who listens to it. */
export class RunnerStates {
  private value: RunnerState = { kind: 'idle' };
  private readonly listeners = new Set<(state: RunnerState) => void>();

  get current(): RunnerState {
    return this.value;
  }

  set(state: RunnerState): void {
    this.value = state;
    for (const listener of this.listeners) listener(state);
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The runner is disposed: nobody hears of it again. */
  clear(): void {
    this.listeners.clear();
  }
}

/** A worker and the page's end of its private port. */
export type WorkerPort = { worker: Worker; port: MessagePort };

/**
 * Connects `worker` on a new private port: `fields` travel with the `connect` message (the
 * engine's locations). Throws what posting throws; the caller owns both ends from then on.
 */
export function connectWorker(worker: Worker, fields: Readonly<Record<string, string>> = {}): WorkerPort {
  const channel = new MessageChannel();
  worker.postMessage({ type: 'connect', port: channel.port2, ...fields }, [channel.port2]);
  return { worker, port: channel.port1 };
}

/** Ends both: the worker is terminated and the page's end of the port closed. */
export function disconnectWorker({ worker, port }: WorkerPort): void {
  worker.terminate();
  port.close();
}
