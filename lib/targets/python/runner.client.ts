/**
 * The Python target's runner (browser-only): the conversation's Kernel (lib/targets/python/kernel.client.ts),
 * one Pyodide interpreter, behind the TargetRunner interface. SQL runs in the same interpreter
 * for now (lib/targets/sql/runner.client.ts), so both are this class with their own language.
 */
import 'client-only';
import type { Kernel, KernelState } from '@/lib/targets/python/kernel.client';
import type { RunResult } from '@/lib/runtime/protocol';
import type { RunLanguage } from '@/lib/targets/python/worker-api.client';
import type { RunContext, RunnerState, TargetRunner } from '../runner';
import type { RunnerEnv } from '../runner-env';
import type { PackageSourceAnswer } from '../target';
import { completeImportLines, pythonEngine } from './engine.client';

function runnerState(state: KernelState): RunnerState {
  if (state.kind === 'starting') return { kind: 'starting', detail: state.phase };
  if (state.kind === 'not-started') return { kind: 'idle' };
  return state;
}

export class InterpreterRunner implements TargetRunner {
  readonly stateful = true;
  readonly replay = 'replay';

  constructor(
    private readonly kernel: Kernel,
    private readonly language: RunLanguage,
  ) {}

  /** Starts the kernel's interpreter if it has not started, and waits for it. */
  start(): Promise<void> {
    this.kernel.start();
    return new Promise((resolve, reject) => {
      const settle = (): boolean => {
        const state = this.kernel.state;
        if (state.kind === 'failed') reject(new Error(state.message));
        else if (state.kind !== 'starting' && state.kind !== 'not-started') resolve();
        else return false;
        return true;
      };
      if (settle()) return;
      const unsubscribe = this.kernel.subscribe(() => {
        if (settle()) unsubscribe();
      });
    });
  }

  async run(code: string, context: RunContext): Promise<RunResult> {
    if (context.signal?.aborted) return { status: 'interrupted', outputs: [], durationMs: 0 };
    this.kernel.setFiles([...context.files]);
    // Stop interrupts the run (and kills the interpreter if it does not come back).
    const stop = () => this.kernel.stop();
    context.signal?.addEventListener('abort', stop, { once: true });
    try {
      return await this.kernel.run(code, {
        language: this.language,
        runId: context.runId,
        dependsOn: context.dependsOn,
        timeoutMs: context.timeoutMs,
        onOutputs: context.onOutputs,
        onPhase: context.onPhase,
      });
    } finally {
      context.signal?.removeEventListener('abort', stop);
    }
  }

  missingRuns(runIds: readonly string[]): string[] {
    return this.kernel.missingRuns(runIds);
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.kernel.readFile(path);
  }

  async restart(): Promise<void> {
    this.kernel.restart();
  }

  /** The interpreter belongs to the page (or the share page's session), which disposes it. */
  dispose(): void {}

  state(): RunnerState {
    return runnerState(this.kernel.state);
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    return this.kernel.subscribe((state) => listener(runnerState(state)));
  }
}

/**
 * Python's runner: the interpreter, with its package source (the mirror Pyodide loads packages
 * from), asked once the interpreter is up. SQL, in the same interpreter, downloads nothing.
 */
class PythonRunner extends InterpreterRunner {
  private source: PackageSourceAnswer = 'unknown';
  private readonly sourceListeners = new Set<() => void>();
  /** Import lines whose packages are loading already. */
  private readonly prefetched = new Set<string>();

  constructor(private readonly interpreter: Kernel) {
    super(interpreter, 'python');
    void interpreter.packageSource().then(
      (answer) => this.heard(answer),
      // The worker died before it could ask: nothing is known until the next interpreter asks.
      () => this.heard('unknown'),
    );
  }

  private heard(answer: PackageSourceAnswer): void {
    this.source = answer;
    for (const listener of this.sourceListeners) listener();
  }

  packageSource(): PackageSourceAnswer {
    return this.source;
  }

  /** Starts loading the packages the complete import lines of code still being written need. */
  prefetch(code: string): void {
    const fresh = completeImportLines(code).filter((line) => !this.prefetched.has(line));
    if (fresh.length === 0) return;
    for (const line of fresh) this.prefetched.add(line);
    this.interpreter.prefetch(fresh.join('\n'));
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    const onSource = () => listener(this.state());
    this.sourceListeners.add(onSource);
    const unsubscribe = super.subscribe(listener);
    return () => {
      this.sourceListeners.delete(onSource);
      unsubscribe();
    };
  }
}

export function createPythonRunner(env: RunnerEnv): TargetRunner {
  return new PythonRunner(env.engine(pythonEngine));
}
