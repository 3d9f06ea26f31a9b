/**
 * How the R runner ends a run past its time limit (lib/targets/r/runner.client.ts): the interrupt
 * first; R that has not come back once the page has been run on schedule for the grace
 * (`R_LIMITS.interruptGraceMs`) is in one long C call, and its worker is replaced; time in which
 * the machine did not run the page does not count, up to the wall limit
 * (`R_LIMITS.interruptGraceWallMs`). A fake machine drives the clock and timers; a fake worker
 * stands for R, which answers the interrupt only when its thread runs (or never: a C call).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeMachine, untilDelivered } from '@/lib/testing/fake-machine';
import type { RunResult } from '@/lib/runtime/protocol';
import { connectMessageSchema, R_LIMITS, requestSchema, type Reply } from './protocol.client';
import { RRunner } from './runner.client';

/** A fake R: runs never end by themselves; an interrupt is answered when `answers` says R's thread has run. */
class FakeR {
  static made: FakeR[] = [];
  terminated = false;
  interrupted = false;
  private port: MessagePort | null = null;
  private running: number | null = null;
  onerror: (() => void) | null = null;
  private onRun: () => void = () => undefined;
  /** Settled once a run's code has reached R. */
  readonly posted = new Promise<void>((resolve) => (this.onRun = resolve));

  constructor() {
    FakeR.made.push(this);
  }

  postMessage(message: unknown) {
    const port = connectMessageSchema.parse(message).port;
    this.port = port;
    port.onmessage = (event: MessageEvent) => {
      const request = requestSchema.parse(event.data);
      if (request.type === 'run') {
        this.running = request.id;
        this.onRun();
      } else if (request.type === 'interrupt') this.interrupted = true;
    };
    port.postMessage({ type: 'ready', version: '0.6.0', packages: 'reachable' } satisfies Reply);
  }

  /** R's thread runs: it takes the interrupt between two steps of its loop and answers, its state kept. */
  stopsNow() {
    if (this.running === null || !this.port) throw new Error('no run to stop');
    this.port.postMessage({ type: 'ran', id: this.running, status: 'interrupted', outputs: [], dropped: 0 } satisfies Reply);
  }

  terminate() {
    this.terminated = true;
  }
}

const realWorker = globalThis.Worker;
afterEach(() => {
  globalThis.Worker = realWorker;
  FakeR.made = [];
});

const LIMIT_MS = 1_000;
const location = { webrBasePath: '/webr/0.6.0/', rPackageRepoUrl: 'https://repo.r-wasm.org/' };

/** A run of R on a fake machine, posted to R and past its time limit: R has been told to stop. */
async function pastTheLimit(): Promise<{ machine: FakeMachine; runner: RRunner; r: FakeR; result: Promise<RunResult> }> {
  globalThis.Worker = FakeR as unknown as typeof Worker;
  const machine = new FakeMachine();
  const runner = new RRunner(location, 60_000, machine);
  const result = runner.run('repeat {}', { runId: 'r1', dependsOn: [], files: [], timeoutMs: LIMIT_MS });
  await untilDelivered(() => FakeR.made.length === 1, 'the fake R');
  const r = FakeR.made[0]!;
  await r.posted;
  machine.run(LIMIT_MS);
  await untilDelivered(() => r.interrupted, 'the fake R');
  return { machine, runner, r, result };
}


describe('R past its time limit', () => {
  it('R in a long C call loses its worker once the page has been run on schedule for the grace, and the run says its state was lost', async () => {
    const { machine, runner, r, result } = await pastTheLimit();
    machine.run(R_LIMITS.interruptGraceMs - 100);
    expect(r.terminated).toBe(false);
    machine.run(200);
    expect(r.terminated).toBe(true);
    const ended = await result;
    expect(ended.status).toBe('timeout');
    expect(ended.failures).toEqual([{ kind: 'time-limit', limitMs: LIMIT_MS, state: 'lost' }]);
    runner.dispose();
  });

  it('on a starved machine R whose thread has not run is waited for past the grace on the wall, and keeps its state when it stops', async () => {
    const { machine, runner, r, result } = await pastTheLimit();
    // Longer than the grace on the wall, none of it on schedule: today's runner killed R here.
    machine.starve(R_LIMITS.interruptGraceMs + 500);
    expect(r.terminated).toBe(false);
    r.stopsNow();
    const ended = await result;
    expect(r.terminated).toBe(false);
    expect(ended.status).toBe('timeout');
    expect(ended.failures).toEqual([{ kind: 'time-limit', limitMs: LIMIT_MS, state: 'kept' }]);
    runner.dispose();
  });

  it('on a machine that never runs the page, R is replaced at the wall limit', async () => {
    const { machine, runner, r, result } = await pastTheLimit();
    machine.starve(R_LIMITS.interruptGraceWallMs - 100);
    expect(r.terminated).toBe(false);
    machine.starve(200);
    expect(r.terminated).toBe(true);
    expect((await result).failures).toEqual([{ kind: 'time-limit', limitMs: LIMIT_MS, state: 'lost' }]);
    runner.dispose();
  });
});
