/**
 * The JavaScript target's runner (browser-only): each run gets a fresh dedicated worker
 * (lib/targets/javascript/engine/javascript.worker.ts) on a private port, terminated when the run ends. The time limit
 * and Stop terminate it too, so a loop that never ends costs nothing after its limit; with no
 * state there is nothing to lose or replay. Everything the worker sends is parsed (it runs
 * model-written code) and kept within the run's output caps.
 */
import 'client-only';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { OutputBudget } from '@/lib/runtime/output-budget.client';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { type RunFailure } from '@/lib/runtime/run-failure';
import { failedRun } from '@/lib/runtime/failed-run';
import type { RunContext, RunnerState, TargetRunner } from '../runner';
import { connectWorker, disconnectWorker, RunnerStates } from '../runner-state.client';
import { JAVASCRIPT_WORKER_SCRIPT } from './meta';
import { replySchema } from './protocol.client';

const ENGINE = 'JavaScript';

/** The excerpt of the code a failure names: its line's text. */
function lineText(code: string, line: number | undefined): string | undefined {
  const text = line ? code.split('\n')[line - 1]?.trim() : undefined;
  return text ? text.slice(0, 300) : undefined;
}

export class JavaScriptRunner implements TargetRunner {
  readonly stateful = false;
  readonly replay = 'none';
  private readonly running = new Set<() => void>();
  private readonly states = new RunnerStates();

  constructor(private readonly makeWorker: () => Worker = () => new Worker(JAVASCRIPT_WORKER_SCRIPT, { type: 'module', name: 'javascript' })) {}

  state(): RunnerState {
    return this.states.current;
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    return this.states.subscribe(listener);
  }

  /** Nothing to prefetch: each run starts its own worker, a script of a few kilobytes. */
  async start(): Promise<void> {}

  /** No state: nothing is ever missing. */
  missingRuns(): string[] {
    return [];
  }

  /** Ends the runs under way (as interrupted); the next run starts fresh as always. */
  async restart(): Promise<void> {
    for (const stop of [...this.running]) stop();
  }

  run(code: string, context: RunContext): Promise<RunResult> {
    const started = performance.now();
    context.onPhase?.({ kind: 'running', startedAt: Date.now() });
    if (context.signal?.aborted) return Promise.resolve(failedRun({ kind: 'interrupted', state: 'none' }, 0));
    let worker: Worker;
    try {
      worker = this.makeWorker();
    } catch (error) {
      return Promise.resolve(failedRun({ kind: 'engine-start', engine: ENGINE, detail: (error instanceof Error ? error.message : String(error)).slice(0, 2_000) }, 0));
    }
    this.states.set({ kind: 'busy' });
    const budget = new OutputBudget(OUTPUT_CAPS);
    const connection = connectWorker(worker);
    return new Promise<RunResult>((resolve) => {
      const admit = (output: Output) => {
        const changed = budget.admit(output, JSON.stringify(output).length);
        if (changed) context.onOutputs?.([...changed]);
      };
      const finish = (failure: RunFailure | null) => {
        clearTimeout(timer);
        context.signal?.removeEventListener('abort', onAbort);
        this.running.delete(onAbort);
        disconnectWorker(connection);
        if (this.running.size === 0) this.states.set({ kind: 'idle' });
        const durationMs = performance.now() - started;
        const capped = budget.failure;
        const result: RunResult = failure ? failedRun(failure, durationMs, budget.outputs) : { status: 'ok', durationMs, outputs: [...budget.outputs] };
        resolve(capped ? { ...result, failures: [...(result.failures ?? []), capped] } : result);
      };
      const onAbort = () => finish({ kind: 'interrupted', state: 'none' });
      const timer = setTimeout(() => finish({ kind: 'time-limit', limitMs: context.timeoutMs, state: 'none' }), context.timeoutMs);
      context.signal?.addEventListener('abort', onAbort, { once: true });
      this.running.add(onAbort);
      // The script failed to load or threw outside the code's own run: the engine did not work.
      worker.onerror = (event) => {
        event.preventDefault();
        finish({ kind: 'engine-start', engine: ENGINE, detail: (event.message || 'the worker script failed').slice(0, 2_000) });
      };
      connection.port.onmessage = (event: MessageEvent<unknown>) => {
        const reply = replySchema.safeParse(event.data);
        if (!reply.success) {
          finish({ kind: 'reply-invalid', engine: ENGINE, dropped: 1 });
          return;
        }
        const message = reply.data;
        if (message.type === 'printed') admit({ output_type: 'stream', name: message.name, text: message.text });
        else if (message.type === 'finished') {
          if (message.value !== undefined) admit({ output_type: 'execute_result', data: { 'text/plain': message.value } });
          finish(null);
        } else {
          const excerpt = lineText(code, message.line);
          finish({ kind: 'code', engine: ENGINE, ename: message.name, evalue: message.message, ...(message.line ? { line: message.line } : {}), ...(excerpt ? { excerpt } : {}) });
        }
      };
      connection.port.postMessage({ type: 'run', code });
    });
  }

  dispose(): void {
    for (const stop of [...this.running]) stop();
    this.states.clear();
  }
}

export function createJavaScriptRunner(): TargetRunner {
  return new JavaScriptRunner();
}
