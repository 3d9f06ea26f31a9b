/**
 * The JavaScript runner's contract against a stand-in for lib/targets/javascript/engine/javascript.worker.ts that
 * speaks its protocol on the private port: printed text streamed as stdout/stderr, the last value
 * as a result, an error as the code's own failure with its line, the time limit and Stop by
 * terminating the worker, and a reply it cannot read ended at once.
 */
import { describe, expect, it } from 'vitest';
import type { Output } from '@/lib/runtime/protocol';
import { connectMessageSchema, runRequestSchema, type Reply } from './protocol.client';
import { JavaScriptRunner } from './runner.client';

/** A worker that answers a run request with `replies` (or nothing, like code that never ends), and records whether it was terminated. */
function fakeWorker(replies: (code: string) => unknown[]) {
  const made: { terminated: boolean }[] = [];
  const make = () => {
    const record = { terminated: false };
    made.push(record);
    return {
      onerror: null,
      postMessage(message: unknown) {
        const { port } = connectMessageSchema.parse(message);
        port.onmessage = (event: MessageEvent) => {
          const request = runRequestSchema.parse(event.data);
          for (const reply of replies(request.code)) port.postMessage(reply);
        };
      },
      terminate() {
        record.terminated = true;
      },
    } as unknown as Worker;
  };
  return { make, made };
}

const context = (timeoutMs = 5_000, signal?: AbortSignal) => ({ files: [], timeoutMs, signal });

describe('JavaScriptRunner', () => {
  it('streams what console printed, shows the last value, and ends its worker', async () => {
    const worker = fakeWorker(() => [
      { type: 'printed', name: 'stdout', text: 'a\n' } satisfies Reply,
      { type: 'printed', name: 'stdout', text: 'b\n' } satisfies Reply,
      { type: 'printed', name: 'stderr', text: 'careful\n' } satisfies Reply,
      { type: 'finished', value: '42' } satisfies Reply,
    ]);
    const runner = new JavaScriptRunner(worker.make);
    const seen: (readonly Output[])[] = [];
    const result = await runner.run('console.log("a"); console.log("b"); console.warn("careful"); 6 * 7', { ...context(), onOutputs: (outputs) => seen.push(outputs) });
    expect(result.status).toBe('ok');
    expect(result.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'a\nb\n' },
      { output_type: 'stream', name: 'stderr', text: 'careful\n' },
      { output_type: 'execute_result', data: { 'text/plain': '42' } },
    ]);
    expect(seen.length).toBeGreaterThan(1);
    expect(worker.made).toEqual([{ terminated: true }]);
    expect(runner.state()).toEqual({ kind: 'idle' });
  });

  it('a fresh worker for each run: nothing is kept between runs', async () => {
    const worker = fakeWorker(() => [{ type: 'finished' } satisfies Reply]);
    const runner = new JavaScriptRunner(worker.make);
    await runner.run('let x = 1', context());
    const second = await runner.run('x', context());
    expect(second.outputs).toEqual([]);
    expect(worker.made).toHaveLength(2);
    expect(runner.missingRuns()).toEqual([]);
  });

  it('an error is the code’s own failure, with the line it names and that line’s text', async () => {
    const worker = fakeWorker(() => [{ type: 'printed', name: 'stdout', text: 'before\n' }, { type: 'threw', name: 'ReferenceError', message: 'y is not defined', line: 2 }]);
    const runner = new JavaScriptRunner(worker.make);
    const result = await runner.run('console.log("before")\nconst x = y + 1', context());
    expect(result.status).toBe('error');
    expect(result.outputs[0]).toEqual({ output_type: 'stream', name: 'stdout', text: 'before\n' });
    const error = result.outputs.at(-1);
    expect(error).toMatchObject({ output_type: 'error', ename: 'ReferenceError' });
    expect(error?.output_type === 'error' && error.evalue).toContain('y is not defined');
    expect(error?.output_type === 'error' && error.evalue).toContain('line 2');
  });

  it('past its time limit the worker is terminated and the run says so, keeping what it printed', async () => {
    const worker = fakeWorker(() => [{ type: 'printed', name: 'stdout', text: 'looping\n' }]);
    const runner = new JavaScriptRunner(worker.make);
    const result = await runner.run('console.log("looping"); while (true) {}', context(50));
    expect(result.status).toBe('timeout');
    expect(result.failures).toEqual([{ kind: 'time-limit', limitMs: 50, state: 'none' }]);
    expect(result.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: 'looping\n' }]);
    expect(worker.made[0].terminated).toBe(true);
  });

  it('Stop terminates the worker and the run is interrupted', async () => {
    const worker = fakeWorker(() => []);
    const runner = new JavaScriptRunner(worker.make);
    const stop = new AbortController();
    const running = runner.run('while (true) {}', context(600_000, stop.signal));
    stop.abort();
    const result = await running;
    expect(result.status).toBe('interrupted');
    expect(result.failures).toEqual([{ kind: 'interrupted', state: 'none' }]);
    expect(worker.made[0].terminated).toBe(true);
  });

  it('a reply the page cannot read ends the run at once as reply-invalid, not at its time limit', async () => {
    const worker = fakeWorker(() => [{ type: 'finished', value: 7 }]);
    const runner = new JavaScriptRunner(worker.make);
    const result = await runner.run('7', context(600_000));
    expect(result.failures).toEqual([{ kind: 'reply-invalid', engine: 'JavaScript', dropped: 1 }]);
    expect(worker.made[0].terminated).toBe(true);
  });

  it('a worker that cannot be made is an engine that did not start', async () => {
    const runner = new JavaScriptRunner(() => {
      throw new Error('workers are not allowed here');
    });
    const result = await runner.run('1', context());
    expect(result.failures).toEqual([{ kind: 'engine-start', engine: 'JavaScript', detail: 'workers are not allowed here' }]);
  });
});
