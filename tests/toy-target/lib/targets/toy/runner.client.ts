/**
 * The toy target's runner (browser-only): one worker per run (engine/toy.worker.ts, built to
 * TOY_WORKER_SCRIPT), on a private port, terminated when the run ends; what it sends is parsed.
 */
import 'client-only';
import type { RunResult } from '@/lib/runtime/protocol';
import { failedRun } from '@/lib/runtime/failed-run';
import type { RunContext, RunnerState, TargetRunner } from '@/lib/targets/runner';
import { connectWorker, disconnectWorker, RunnerStates } from '@/lib/targets/runner-state.client';
import { TOY_WORKER_SCRIPT } from './meta';
import { toyReplySchema } from './protocol';

export class ToyRunner implements TargetRunner {
  readonly stateful = false;
  readonly replay = 'none';
  private readonly states = new RunnerStates();

  constructor(private readonly makeWorker: () => Worker = () => new Worker(TOY_WORKER_SCRIPT, { type: 'module', name: 'toy' })) {}

  async start(): Promise<void> {}

  run(code: string, context: RunContext): Promise<RunResult> {
    const started = performance.now();
    const connection = connectWorker(this.makeWorker());
    this.states.set({ kind: 'busy' });
    return new Promise<RunResult>((resolve) => {
      const finish = (result: RunResult) => {
        clearTimeout(timer);
        disconnectWorker(connection);
        this.states.set({ kind: 'idle' });
        resolve(result);
      };
      const timer = setTimeout(() => finish(failedRun({ kind: 'time-limit', limitMs: context.timeoutMs, state: 'none' }, performance.now() - started)), context.timeoutMs);
      connection.port.onmessage = ({ data }) => {
        const reply = toyReplySchema.safeParse(data);
        if (!reply.success) return finish(failedRun({ kind: 'reply-invalid', engine: 'Toy', dropped: 1 }, performance.now() - started));
        finish({ status: 'ok', outputs: [{ output_type: 'stream', name: 'stdout', text: reply.data.text }], durationMs: performance.now() - started });
      };
      connection.port.postMessage({ id: 1, code });
    });
  }

  missingRuns(): string[] {
    return [];
  }

  async restart(): Promise<void> {}

  dispose(): void {
    this.states.clear();
  }

  state(): RunnerState {
    return this.states.current;
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    return this.states.subscribe(listener);
  }
}

export function createToyRunner(): ToyRunner {
  return new ToyRunner();
}
