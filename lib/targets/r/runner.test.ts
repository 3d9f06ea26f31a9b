/**
 * The R runner's page side against a stand-in for lib/targets/r/engine/r.worker.ts that speaks its protocol on
 * the private port: what the page learns of R's package repository when R starts, and what a run
 * says of earlier R runs this R has not run (after a reload without restore).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as deviceFiles from '@/lib/files/device-files.client';
import { newDropId } from '@/lib/files/data-file';
import { connectMessageSchema, R_LIMITS, requestSchema, type Reply } from './protocol.client';
import { RRunner } from './runner.client';
import { FakeMachine, untilDelivered } from '@/lib/testing/fake-machine';
import { ON_SCHEDULE_TICK_MS } from '@/lib/runtime/on-schedule-clock';

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
  it("a run's duration is its code's: R's start before it is not counted (a restore's estimate reads it)", async () => {
    let clock = 1_000;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      const Starting = fakeWorker('reachable', (id) => {
        clock += 5; // the code itself
        return { type: 'ran', id, status: 'ok', outputs: [], dropped: 0 } satisfies Reply;
      });
      globalThis.Worker = class extends Starting {
        override postMessage(message: unknown) {
          clock += 30_000; // webR starting, before the run's code is posted
          super.postMessage(message);
        }
      } as unknown as typeof Worker;
      const runner = new RRunner(location);
      const result = await runner.run('kept <- 1', context('r1'));
      expect(result.status).toBe('ok');
      expect(result.durationMs).toBe(5);
      runner.dispose();
    } finally {
      now.mockRestore();
    }
  });

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

/**
 * Every R run ends — with a result, or a run failure the model reads — whatever order R's start,
 * its crash, a restart and its replies come in. A stand-in R per `new Worker`, scripted by `script`.
 */
describe('RRunner: every run ends', () => {
  type Port = MessagePort;
  type Script = { onConnect?: (port: Port, worker: { fail: () => void }) => void; onRun?: (port: Port, id: number) => void };
  function scriptedWorkers(...scripts: Script[]) {
    const made: Array<{ terminated: boolean }> = [];
    globalThis.Worker = class {
      onerror: (() => void) | null = null;
      terminated = false;
      private readonly script = scripts[made.length] ?? {};
      constructor() {
        made.push(this);
      }
      postMessage(message: unknown) {
        const port = connectMessageSchema.parse(message).port;
        port.onmessage = (event: MessageEvent) => {
          const request = requestSchema.parse(event.data);
          if (request.type === 'run') this.script.onRun?.(port, request.id);
        };
        this.script.onConnect?.(port, { fail: () => this.onerror?.() });
      }
      terminate() {
        this.terminated = true;
      }
    } as unknown as typeof Worker;
    return made;
  }
  const ready = (port: Port) => port.postMessage({ type: 'ready', version: '0.6.0', packages: 'reachable' } satisfies Reply);
  const ran = (port: Port, id: number) => port.postMessage({ type: 'ran', id, status: 'ok', outputs: [{ output_type: 'stream', name: 'stdout', text: 'ran\n' }], dropped: 0 } satisfies Reply);
  const later = (ms: number, act: () => void) => setTimeout(act, ms);
  const patient = { runId: 'r1', dependsOn: [], files: [], timeoutMs: 600_000 };

  it('R that says nothing within its start allowance ends the run as engine-start; its late ready is ignored, and the next run starts a fresh R', async () => {
    const workers = scriptedWorkers({ onConnect: (port) => later(300, () => ready(port)), onRun: ran }, { onConnect: ready, onRun: ran });
    const runner = new RRunner(location, 100);
    const first = await runner.run('1', patient);
    expect(first).toMatchObject({ status: 'error', failures: [{ kind: 'engine-start', engine: 'R' }] });
    expect(workers[0].terminated).toBe(true);
    const second = await runner.run('2', { ...patient, runId: 'r2' });
    expect(second.status).toBe('ok');
    // The first R's ready, arriving now, changes nothing: the second R is the runner's.
    await new Promise((resolve) => later(400, () => resolve(null)));
    expect(workers[1].terminated).toBe(false);
    expect(runner.state().kind).toBe('ready');
    runner.dispose();
  });

  it('R whose worker crashes while it starts ends the run as engine-start at once', async () => {
    scriptedWorkers({ onConnect: (_port, worker) => later(20, () => worker.fail()) });
    const runner = new RRunner(location);
    const result = await runner.run('1', patient);
    expect(result).toMatchObject({ status: 'error', failures: [{ kind: 'engine-start', engine: 'R', detail: 'its worker script failed to load' }] });
    runner.dispose();
  });

  it('a restart while R starts ends the run waiting for it at once, and the R the restart started stays', async () => {
    // The first R never answers: the run must not wait for its start allowance (600 s here).
    const workers = scriptedWorkers({}, { onConnect: (port) => later(50, () => ready(port)), onRun: ran });
    const runner = new RRunner(location, 600_000);
    const waiting = runner.run('1', patient);
    await new Promise((resolve) => later(20, () => resolve(null)));
    await runner.restart();
    const result = await waiting;
    expect(result).toMatchObject({ status: 'interrupted', failures: [{ kind: 'interrupted', state: 'none' }] });
    expect(workers[0].terminated).toBe(true);
    expect(workers[1].terminated).toBe(false);
    expect(runner.state().kind).toBe('ready');
    expect((await runner.run('2', { ...patient, runId: 'r2' })).status).toBe('ok');
    runner.dispose();
  }, 10_000);

  it('a stale R failing to start does not end the R a restart started after it', async () => {
    // The first R fails its start after the restart; the second answers later still.
    const workers = scriptedWorkers({ onConnect: (port) => later(100, () => port.postMessage({ type: 'failed', failure: { kind: 'engine-start', engine: 'R', detail: 'late' } } satisfies Reply)) }, { onConnect: (port) => later(200, () => ready(port)), onRun: ran });
    const runner = new RRunner(location, 600_000);
    const waiting = runner.run('1', patient);
    await new Promise((resolve) => later(20, () => resolve(null)));
    const restarted = runner.restart();
    expect((await waiting).status).toBe('interrupted');
    await restarted;
    expect(workers[1].terminated).toBe(false);
    expect((await runner.run('2', { ...patient, runId: 'r2' })).status).toBe('ok');
    runner.dispose();
  }, 10_000);

  it('the page closing while R starts ends the waiting run as page-closed', async () => {
    scriptedWorkers({});
    const runner = new RRunner(location, 600_000);
    const waiting = runner.run('1', patient);
    await new Promise((resolve) => later(20, () => resolve(null)));
    runner.dispose();
    expect(await waiting).toMatchObject({ status: 'page-closed', failures: [{ kind: 'page-closed' }] });
  }, 10_000);

  it('R that ignores the interrupt at the time limit is replaced; its reply after that is ignored, and the next run has a fresh R', async () => {
    // The time limit and the grace run on a fake machine, on schedule: a loaded test machine cannot stretch them.
    let lateReply: (() => void) | null = null;
    let posted = false;
    const workers = scriptedWorkers({ onConnect: ready, onRun: (port, id) => { posted = true; lateReply = () => ran(port, id); } }, { onConnect: ready, onRun: ran });
    const machine = new FakeMachine();
    const runner = new RRunner(location, 60_000, machine);
    const running = runner.run('repeat {}', { ...patient, timeoutMs: 50 });
    await untilDelivered(() => posted, 'the stand-in R');
    machine.run(50 + R_LIMITS.interruptGraceMs + ON_SCHEDULE_TICK_MS * 2);
    const result = await running;
    expect(result).toMatchObject({ status: 'timeout', failures: [{ kind: 'time-limit', limitMs: 50, state: 'lost' }], restarted: true });
    expect(workers[0].terminated).toBe(true);
    // The replaced R answers now; nothing changes: the next run goes to a fresh R.
    lateReply!();
    await new Promise((resolve) => later(20, () => resolve(null)));
    const next = await runner.run('1', { ...patient, runId: 'r2' });
    expect(next).toMatchObject({ status: 'ok', restarted: true });
    expect(workers).toHaveLength(2);
    runner.dispose();
  }, 10_000);
});

describe('RRunner and files kept on the device', () => {
  const KEPT = 'b'.repeat(64);
  const ABSENT = 'c'.repeat(64);
  const keptBlob = new Blob(['x,y\n1,2\n']);

  /** A worker that records each request and answers mounts as done. */
  function recordingWorker(requests: unknown[]) {
    return class {
      onerror: (() => void) | null = null;
      postMessage(message: unknown) {
        const port = connectMessageSchema.parse(message).port;
        port.onmessage = (event: MessageEvent) => {
          const request = requestSchema.parse(event.data);
          requests.push(request);
          if (request.type === 'mount-file') port.postMessage({ type: 'done', id: request.id } satisfies Reply);
          if (request.type === 'run') port.postMessage({ type: 'ran', id: request.id, status: 'ok', outputs: [], dropped: 0 } satisfies Reply);
        };
        port.postMessage({ type: 'ready', version: '0.6.0', packages: 'reachable' } satisfies Reply);
      }
      terminate() {}
    };
  }

  it('mounts a kept file by handing R its File (no bytes fetched), once per R; a device without it fails the run as on-device', async () => {
    vi.spyOn(deviceFiles, 'deviceFile').mockImplementation(async (sha256) => (sha256 === KEPT ? new File([keptBlob], 'kept') : null));
    const requests: unknown[] = [];
    globalThis.Worker = recordingWorker(requests) as unknown as typeof Worker;
    const runner = new RRunner(location);
    const files = [{ name: 'big.csv', sha256: KEPT, location: 'device' as const }];
    expect((await runner.run('1', { ...context('r1'), files })).status).toBe('ok');
    expect((await runner.run('2', { ...context('r2'), files })).status).toBe('ok');
    const mounts = requests.filter((r) => (r as { type: string }).type === 'mount-file') as Array<{ name: string; sha256: string; file: Blob }>;
    expect(mounts.map(({ name, sha256 }) => ({ name, sha256 }))).toEqual([{ name: 'big.csv', sha256: KEPT }]);
    expect(await mounts[0].file.text()).toBe('x,y\n1,2\n');
    expect(requests.some((r) => (r as { type: string }).type === 'write-file')).toBe(false);

    const missing = await runner.run('3', { ...context('r3'), files: [...files, { name: 'elsewhere.csv', sha256: ABSENT, location: 'device' as const }] });
    expect(missing.failures).toEqual([{ kind: 'dataset-missing', name: 'elsewhere.csv', reason: 'on-device' }]);
    runner.dispose();
  });

  it('reads a file just dropped in place from its File while it is kept, and the kept copy from the next run after the keep', async () => {
    vi.spyOn(deviceFiles, 'deviceFile').mockImplementation(async (sha256) => (sha256 === KEPT ? new File([keptBlob], 'kept') : null));
    const requests: unknown[] = [];
    globalThis.Worker = recordingWorker(requests) as unknown as typeof Worker;
    const runner = new RRunner(location);
    const dropId = newDropId();
    const dropped = new File(['x,y\n1,2\n'], 'big.csv');
    expect((await runner.run('1', { ...context('r1'), files: [{ name: 'big.csv', location: 'dropped', dropId, file: dropped }] })).status).toBe('ok');
    expect((await runner.run('2', { ...context('r2'), files: [{ name: 'big.csv', sha256: KEPT, location: 'device' }] })).status).toBe('ok');
    const mounts = requests.filter((r) => (r as { type: string }).type === 'mount-file') as Array<{ name: string; sha256: string; file: Blob }>;
    expect(mounts.map(({ name, sha256 }) => ({ name, sha256 }))).toEqual([{ name: 'big.csv', sha256: dropId }, { name: 'big.csv', sha256: KEPT }]);
    expect(await mounts[0].file.text()).toBe(await dropped.text());
    expect(requests.some((r) => (r as { type: string }).type === 'write-file')).toBe(false);
    runner.dispose();
  });
});
