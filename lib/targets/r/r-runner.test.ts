/**
 * The R runner's page side against a stand-in for workers/r.worker.ts that speaks its protocol on
 * the private port: what the page learns of R's package repository when R starts, and what a run
 * says of earlier R runs this R has not run (after a reload without restore).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectMessageSchema, requestSchema, type Reply } from './protocol';
import { RRunner } from './r-runner';

/** A worker that answers `ready` (with the repository's answer) and runs every run as `ok`. */
function fakeWorker(packages: 'reachable' | 'unreachable') {
  return class {
    onerror: (() => void) | null = null;
    postMessage(message: unknown) {
      const connect = connectMessageSchema.parse(message);
      const port = connect.port;
      port.onmessage = (event: MessageEvent) => {
        const request = requestSchema.parse(event.data);
        if (request.type === 'run') port.postMessage({ type: 'ran', id: request.id, status: 'ok', outputs: [{ output_type: 'stream', name: 'stdout', text: 'ran\n' }], dropped: 0 } satisfies Reply);
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
});
