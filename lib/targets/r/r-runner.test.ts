/**
 * The R runner's page side against a stand-in for workers/r.worker.ts that speaks its protocol on
 * the private port: what the page learns of R's package repository when R starts, and what a run
 * says of earlier R runs this R has not run (after a reload without restore).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectMessageSchema, requestSchema, type Reply } from './protocol';
import { RRunner } from './r-runner';

/** A worker that answers `ready` (with the repository's answer) and runs every run as `ok`, or answers runs as `answer` says. */
function fakeWorker(packages: 'reachable' | 'unreachable', answer?: (id: number) => unknown) {
  return class {
    onerror: (() => void) | null = null;
    postMessage(message: unknown) {
      const connect = connectMessageSchema.parse(message);
      const port = connect.port;
      port.onmessage = (event: MessageEvent) => {
        const request = requestSchema.parse(event.data);
        if (request.type === 'run' && answer) port.postMessage(answer(request.id));
        else if (request.type === 'run') port.postMessage({ type: 'ran', id: request.id, status: 'ok', outputs: [{ output_type: 'stream', name: 'stdout', text: 'ran\n' }], dropped: 0 } satisfies Reply);
      };
      port.postMessage({ type: 'ready', version: '0.6.0', packages } satisfies Reply);
    }
    terminate() {}
  };
}

const realWorker = globalThis.Worker;
afterEach(() => {
  globalThis.Worker = realWorker;
});

const location = { webrBasePath: '/webr/0.6.0/', rPackageRepoUrl: 'https://repo.r-wasm.org/' };
const context = (runId: string, dependsOn: string[] = []) => ({ runId, dependsOn, files: [], timeoutMs: 5_000 });

describe('RRunner', () => {
  it('knows nothing of the package repository until R starts, then what the worker found, and says so to subscribers', async () => {
    globalThis.Worker = fakeWorker('unreachable') as unknown as typeof Worker;
    const runner = new RRunner(location);
    const heard: string[] = [];
    runner.subscribe((state) => heard.push(`${state.kind}:${runner.packageSource()}`));
    expect(runner.packageSource()).toBe('unknown');
    await runner.start();
    expect(runner.packageSource()).toBe('unreachable');
    expect(heard.at(-1)).toBe('ready:unreachable');
    runner.dispose();
  });

  it('a run that depends on earlier R runs this R has not run says how many; once run here, none', async () => {
    globalThis.Worker = fakeWorker('reachable') as unknown as typeof Worker;
    const runner = new RRunner(location);
    const fresh = await runner.run('cat(kept)', context('r3', ['r1', 'r2']));
    expect(fresh.status).toBe('ok');
    expect(fresh.freshInterpreter).toEqual({ missingRuns: 2 });
    expect(runner.packageSource()).toBe('reachable');
    // The runs replayed (or run) in this R are its own: nothing is missing after them.
    await runner.run('kept <- 1', context('r1'));
    await runner.run('kept <- kept + 1', context('r2'));
    const after = await runner.run('cat(kept)', context('r4', ['r1', 'r2']));
    expect(after.freshInterpreter).toBeUndefined();
    expect(runner.missingRuns(['r1', 'r2', 'r5'])).toEqual(['r5']);
    runner.dispose();
  });

  // The time limit is far past the test's own timeout: a runner that waited for it would fail the test.
  const patient = { runId: 'r1', dependsOn: [], files: [], timeoutMs: 600_000 };

  it('a reply the page cannot read, for a run it waits on, ends that run at once as a reply-invalid failure', async () => {
    // More outputs than the protocol admits: today's page dropped it and waited for the time limit.
    const tooMany = Array.from({ length: 5_000 }, () => ({ output_type: 'stream', name: 'stdout', text: 'x' }));
    globalThis.Worker = fakeWorker('reachable', (id) => ({ type: 'ran', id, status: 'ok', outputs: tooMany, dropped: 0 })) as unknown as typeof Worker;
    const runner = new RRunner(location);
    const result = await runner.run('for (i in 1:5000) cat("x")', patient);
    expect(result.failures).toEqual([{ kind: 'reply-invalid', engine: 'R', dropped: 1 }]);
    expect(result.status).toBe('error');
    runner.dispose();
  }, 10_000);

  it('a request the worker could not carry out ends the run at once with the worker’s failure', async () => {
    const failure = { kind: 'crashed', engine: 'R', cause: 'fault', stateLost: false, detail: 'DataCloneError' } as const;
    globalThis.Worker = fakeWorker('reachable', (id) => ({ type: 'request-failed', id, failure } satisfies Reply)) as unknown as typeof Worker;
    const runner = new RRunner(location);
    const result = await runner.run('plot(1)', patient);
    expect(result.failures).toEqual([failure]);
    expect(result.status).toBe('crashed');
    runner.dispose();
  });

  it('R that cannot start is an engine-start failure, and the code does not run', async () => {
    globalThis.Worker = class {
      onerror: (() => void) | null = null;
      postMessage(message: unknown) {
        connectMessageSchema.parse(message).port.postMessage({ type: 'failed', failure: { kind: 'engine-start', engine: 'R', detail: 'R.wasm could not be compiled' } } satisfies Reply);
      }
      terminate() {}
    } as unknown as typeof Worker;
    const runner = new RRunner(location);
    const result = await runner.run('1 + 1', patient);
    expect(result).toMatchObject({ status: 'error', outputs: [], failures: [{ kind: 'engine-start', engine: 'R', detail: 'R.wasm could not be compiled' }] });
    runner.dispose();
  });
});
