/**
 * Runs `graphviz` cells in the page: one Graphviz worker (workers/graphviz.worker.ts) on a private
 * port, each render raced against the run's time limit — past it the worker is terminated (a
 * layout cannot be interrupted) and the next render starts a fresh one. The result is a run like
 * any other: an SVG (shown as an image) plus a PNG drawn from it in the page, for the model.
 */
import { GRAPHVIZ_LIMITS, workerReplySchema, type Rendered } from './protocol';
import type { RunResult } from '@/lib/runtime/protocol';
import { svgToPngBase64 } from './svg-to-png';

const WORKER_URL = '/workers/graphviz.worker.mjs';
const START_TIMEOUT_MS = 30_000;

type Connection = { worker: Worker; port: MessagePort; ready: Promise<void>; pending: Map<number, (reply: Rendered) => void> };

export class GraphvizRunner {
  private connection: Connection | null = null;
  private nextId = 1;

  private connect(): Connection {
    if (this.connection) return this.connection;
    const worker = new Worker(WORKER_URL, { type: 'module', name: 'graphviz' });
    const channel = new MessageChannel();
    const pending = new Map<number, (reply: Rendered) => void>();
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Graphviz did not start in time.')), START_TIMEOUT_MS);
      channel.port1.onmessage = (event: MessageEvent<unknown>) => {
        const reply = workerReplySchema.safeParse(event.data);
        if (!reply.success) return; // anything else from the worker is ignored
        if (reply.data.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (reply.data.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(reply.data.message));
        } else pending.get(reply.data.id)?.(reply.data);
      };
    });
    ready.catch(() => undefined);
    worker.postMessage({ type: 'connect', port: channel.port2 }, [channel.port2]);
    this.connection = { worker, port: channel.port1, ready, pending };
    return this.connection;
  }

  private kill(): void {
    this.connection?.worker.terminate();
    this.connection?.port.close();
    this.connection = null;
  }

  async run(dot: string, timeoutMs: number): Promise<RunResult> {
    const started = performance.now();
    if (dot.length > GRAPHVIZ_LIMITS.maxDotChars) return failure(`The DOT source is longer than ${GRAPHVIZ_LIMITS.maxDotChars.toLocaleString('en-US')} characters.`, started);
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
        return { status: 'timeout', outputs: [], durationMs: performance.now() - started, notice: `Graphviz did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.` };
      }
      if (!reply.ok) {
        const where = reply.line ? ` (line ${reply.line})` : '';
        return { status: 'error', durationMs: performance.now() - started, outputs: [{ output_type: 'error', ename: 'DotSyntaxError', evalue: `${reply.message}${where}`, traceback: [reply.message] }] };
      }
      const png = await svgToPngBase64(reply.svg, reply.width, reply.height).catch(() => null);
      return {
        status: 'ok',
        durationMs: performance.now() - started,
        outputs: [{ output_type: 'display_data', data: { 'image/svg+xml': reply.svg, ...(png ? { 'image/png': png } : {}), 'text/plain': `<Graphviz diagram, ${Math.round(reply.width)}×${Math.round(reply.height)}>` } }],
      };
    } catch (error) {
      this.kill();
      return failure(`Graphviz could not run: ${error instanceof Error ? error.message : String(error)}`, started);
    } finally {
      clearTimeout(timer);
      connection.pending.delete(id);
    }
  }

  dispose(): void {
    this.kill();
  }
}

function failure(message: string, started: number): RunResult {
  return { status: 'error', durationMs: performance.now() - started, outputs: [{ output_type: 'error', ename: 'GraphvizError', evalue: message, traceback: [message] }] };
}
