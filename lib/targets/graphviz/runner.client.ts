/**
 * Runs `graphviz` cells in the page: one Graphviz worker (lib/targets/graphviz/engine/graphviz.worker.ts) on a private
 * port, each render raced against the run's time limit — past it the worker is terminated (a
 * layout cannot be interrupted) and the next render starts a fresh one. The result is a run like
 * any other: an SVG (shown as an image) plus a PNG drawn from it in the page, for the model.
 */
import 'client-only';
import { GRAPHVIZ_LIMITS, workerReplySchema, type Rendered } from './protocol.client';
import type { MimeBundle, RunResult } from '@/lib/runtime/protocol';
import { RunFailureError, type Failed, type RunFailure } from '@/lib/runtime/run-failure';
import { failedRun } from '@/lib/runtime/failed-run';
import type { RunContext, RunnerState, TargetRunner } from '../runner';
import { connectWorker, disconnectWorker, RunnerStates, type WorkerPort } from '../runner-state.client';
import { svgToPngBase64 } from './svg-to-png.client';

const WORKER_URL = '/workers/graphviz.worker.mjs';
const START_TIMEOUT_MS = 30_000;

type Connection = WorkerPort & { ready: Promise<void>; pending: Map<number, (reply: Rendered) => void> };

const ENGINE = 'Graphviz';

export class GraphvizRunner implements TargetRunner {
  readonly stateful = false;
  readonly replay = 'none';
  private connection: Connection | null = null;
  private nextId = 1;
  private readonly states = new RunnerStates();

  state(): RunnerState {
    return this.states.current;
  }

  subscribe(listener: (state: RunnerState) => void): () => void {
    return this.states.subscribe(listener);
  }

  /** Starts the worker (a prefetch); a failure to start is reported by the next run. */
  async start(): Promise<void> {
    await this.connect().ready;
  }

  /** Diagrams have no state: nothing is ever missing. */
  missingRuns(): string[] {
    return [];
  }

  /** A fresh worker on the next render. */
  async restart(): Promise<void> {
    this.kill();
  }

  private connect(): Connection {
    if (this.connection) return this.connection;
    const { worker, port } = connectWorker(new Worker(WORKER_URL, { type: 'module', name: 'graphviz' }));
    const pending = new Map<number, (reply: Rendered) => void>();
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new RunFailureError({ kind: 'engine-start', engine: ENGINE, detail: `no answer within ${START_TIMEOUT_MS / 1000} s` })), START_TIMEOUT_MS);
      port.onmessage = (event: MessageEvent<unknown>) => {
        const reply = workerReplySchema.safeParse(event.data);
        if (!reply.success) return; // anything else from the worker is ignored
        if (reply.data.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (reply.data.type === 'failed') {
          clearTimeout(timer);
          reject(new RunFailureError(reply.data.failure));
        } else pending.get(reply.data.id)?.(reply.data);
      };
    });
    // Awaited by every render, which reports the failure in words; this keeps an unused connection's failure from being unhandled.
    ready.catch(() => undefined);
    this.connection = { worker, port, ready, pending };
    return this.connection;
  }

  private kill(): void {
    if (this.connection) disconnectWorker(this.connection);
    this.connection = null;
  }

  /**
   * Draws one DOT source: the sanitized SVG and a PNG of it (null when the page could not draw
   * one), or why not. Used by `graphviz` cells and by DOT that Python displays (dot-outputs.ts).
   */
  async render(dot: string, timeoutMs: number): Promise<DotRender> {
    if (dot.length > GRAPHVIZ_LIMITS.maxDotChars) return failed({ kind: 'output-refused', engine: ENGINE, what: 'source', limitChars: GRAPHVIZ_LIMITS.maxDotChars, chars: dot.length });
    const connection = this.connect();
    const id = this.nextId++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const reply = await Promise.race([
        connection.ready.then(
          () =>
            new Promise<Rendered>((resolve) => {
              connection.pending.set(id, resolve);
              connection.port.postMessage({ type: 'render', id, dot });
            }),
        ),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
        }),
      ]);
      if (reply === 'timeout') {
        this.kill();
        return failed({ kind: 'time-limit', limitMs: timeoutMs, state: 'none' });
      }
      if (!reply.ok) return failed(reply.failure);
      // The page shows the SVG either way; without a PNG the model reads the diagram's size in words (it wrote the DOT itself).
      const png = await svgToPngBase64(reply.svg, reply.width, reply.height).catch((error: unknown) => {
        console.warn('A diagram could not be turned into a PNG for the model; it is described in words instead.', error);
        return null;
      });
      return { ok: true, svg: reply.svg, png, width: reply.width, height: reply.height };
    } catch (error) {
      // The worker did not start (its own failure), or posting to it threw: a fresh one next time.
      this.kill();
      if (error instanceof RunFailureError) return failed(error.failure);
      throw error;
    } finally {
      clearTimeout(timer);
      connection.pending.delete(id);
    }
  }

  /**
   * A `graphviz` cell: the drawing as a run like any other. A layout cannot be interrupted, so
   * Stop abandons it and kills the worker (the next render starts a fresh one).
   */
  async run(dot: string, context: RunContext): Promise<RunResult> {
    const started = performance.now();
    context.onPhase?.({ kind: 'running', startedAt: Date.now() });
    if (context.signal?.aborted) return failedRun({ kind: 'interrupted', state: 'none' }, 0);
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<'stopped'>((resolve) => {
      onAbort = () => resolve('stopped');
      context.signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.states.set({ kind: 'busy' });
    const drawn = await Promise.race([this.render(dot, context.timeoutMs), stopped]);
    if (onAbort) context.signal?.removeEventListener('abort', onAbort);
    this.states.set(this.connection ? { kind: 'ready' } : { kind: 'idle' });
    const durationMs = performance.now() - started;
    if (drawn === 'stopped') {
      this.kill();
      return failedRun({ kind: 'interrupted', state: 'none' }, durationMs);
    }
    if (drawn.ok) return { status: 'ok', durationMs, outputs: [{ output_type: 'display_data', data: diagramBundle(drawn) }] };
    return failedRun(drawn.failure, durationMs);
  }

  dispose(): void {
    this.kill();
    this.states.clear();
  }
}

export function createGraphvizRunner(): TargetRunner {
  return new GraphvizRunner();
}

/** Not drawn (bad DOT, past the time limit) is a run failure the run reports, not an exception. */
export type DotRender = { ok: true; svg: string; png: string | null; width: number; height: number } | Failed;

function failed(failure: RunFailure): Failed {
  return { ok: false, failure };
}

/** The bundle of a drawn diagram: shown as the SVG, sent to the model as the PNG. */
export function diagramBundle(drawn: Extract<DotRender, { ok: true }>): MimeBundle {
  return { 'image/svg+xml': drawn.svg, ...(drawn.png ? { 'image/png': drawn.png } : {}), 'text/plain': `<Graphviz diagram, ${Math.round(drawn.width)}×${Math.round(drawn.height)}>` };
}
