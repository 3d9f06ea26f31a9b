/**
 * How the kernel ends a run that passed its time limit (lib/targets/python/kernel.client.ts): the
 * interrupt flag first; a flag Python has not taken once the page has been run on schedule for
 * long enough since it (`RUN_LIMITS.interruptTakeOnScheduleMs`) is C code, whose worker is killed
 * at the end of the grace and replaced by the spare; time in which the machine did not run the
 * page does not count, up to the wall limit (`RUN_LIMITS.interruptTakeMs`). A fake machine drives
 * the clock and timers; fake workers stand for Python code (takes the flag when its thread runs)
 * and C code (never does).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Kernel } from './kernel.client';
import type { WorkerHandle } from './worker-handle.client';
import { OUTPUT_CAPS, RUN_LIMITS } from '@/lib/runtime/limits';
import { ON_SCHEDULE_SLACK_MS, ON_SCHEDULE_TICK_MS, OnScheduleClock } from '@/lib/runtime/on-schedule-clock';
import { FakeMachine } from '@/lib/testing/fake-machine';
import type { RunResult } from '@/lib/runtime/protocol';

type Code = 'python' | 'c';

/** A worker: its run ends when Python takes the interrupt (its thread running), or rejects when it is terminated. */
class FakeWorker {
  static made: FakeWorker[] = [];
  /** What the next run executes: a pure Python loop or C code that never looks at the flag. */
  static code: Code = 'python';
  readonly isReady = true;
  readonly ready = Promise.resolve({ pythonVersion: '3.12', pyodideVersion: 'fake' });
  readonly canInterrupt = true;
  readonly sqlStarted = false;
  readonly memoryLimitReached = false;
  outputMessages = 0;
  droppedMessages = 0;
  runs = 0;
  private flag = 0;
  private terminated = false;
  private running: { code: Code; end: (status: 'interrupted') => void; fail: (error: Error) => void } | null = null;

  constructor() {
    FakeWorker.made.push(this);
  }

  run(): Promise<{ status: 'ok' | 'error' | 'interrupted'; heapBytes: number }> {
    this.runs += 1;
    return new Promise((resolve, reject) => {
      this.running = { code: FakeWorker.code, end: (status) => resolve({ status, heapBytes: 1 }), fail: reject };
    });
  }

  /** Its thread is run: Python takes a pending interrupt and raises KeyboardInterrupt; C code does not look. */
  runThread(): void {
    if (this.running?.code === 'python' && this.flag === 2) {
      this.flag = 0;
      this.running.end('interrupted');
      this.running = null;
    }
  }

  interrupt(): void {
    this.flag = 2;
  }

  get interruptTaken(): boolean {
    return this.flag === 0;
  }

  clearInterrupt(): void {
    this.flag = 0;
  }

  requestFlush(): void {}
  onMemoryLimit(): void {}

  heapBytes(): Promise<number> {
    return Promise.resolve(1);
  }

  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.running?.fail(new Error('terminated'));
    this.running = null;
  }

  get isTerminated(): boolean {
    return this.terminated;
  }
}

const CONFIG = {
  workerUrl: '/workers/python.worker.mjs',
  indexURL: 'http://127.0.0.1/pyodide/',
  packageBaseUrl: 'http://127.0.0.1/packages/',
  packageLockUrl: 'http://127.0.0.1/lock.json',
  caps: OUTPUT_CAPS,
  duckdb: { assetUrl: 'http://127.0.0.1/duckdb/', extensionRepository: 'http://127.0.0.1/ext' },
};

const LIMIT_MS = 1_000;
/** Lets the kernel's awaits (promise callbacks, not timers) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function startRun(code: Code): Promise<{ machine: FakeMachine; kernel: Kernel; worker: FakeWorker; result: Promise<RunResult>; ended: () => boolean }> {
  FakeWorker.code = code;
  const machine = new FakeMachine();
  const kernel = new Kernel(CONFIG, 'now', { scheduler: machine, makeHandle: () => new FakeWorker() as unknown as WorkerHandle });
  await settle();
  let done = false;
  const result = kernel.run('x = 1\nwhile True: pass', { timeoutMs: LIMIT_MS });
  void result.then(() => (done = true));
  await settle();
  const worker = FakeWorker.made[0];
  expect(worker.runs).toBe(1);
  machine.run(LIMIT_MS); // the limit: the interrupt flag is set
  await settle();
  return { machine, kernel, worker, result, ended: () => done };
}

afterEach(() => {
  FakeWorker.made = [];
});

describe('the time the page was run on schedule', () => {
  it('counts the ticks on time and drops an interval in which the page was not run', () => {
    const machine = new FakeMachine();
    const clock = new OnScheduleClock(machine);
    machine.run(200);
    const onTime = clock.onScheduleMs;
    expect(onTime).toBeGreaterThan(200 - ON_SCHEDULE_TICK_MS - ON_SCHEDULE_SLACK_MS);
    machine.starve(1_000);
    expect(clock.onScheduleMs).toBe(onTime);
    machine.run(200);
    expect(clock.onScheduleMs).toBeGreaterThan(onTime + 200 - ON_SCHEDULE_TICK_MS - ON_SCHEDULE_SLACK_MS);
    clock.stop();
  });
});

describe('a run past its time limit', () => {
  it('C code that ignores the interrupt, on a machine that runs the page, is killed at the end of the grace and the spare takes over', async () => {
    expect(RUN_LIMITS.interruptTakeOnScheduleMs).toBeLessThan(RUN_LIMITS.interruptGraceMs - ON_SCHEDULE_TICK_MS);
    const { machine, kernel, worker, result } = await startRun('c');
    machine.run(RUN_LIMITS.interruptGraceMs);
    await settle();
    expect(worker.isTerminated).toBe(true);
    const ended = await result;
    expect(ended.status).toBe('timeout');
    expect(ended.restarted).toBe(true);
    expect(ended.failures?.[0]).toEqual({ kind: 'time-limit', limitMs: LIMIT_MS, state: 'lost' });
    // The spare started during the grace is the new interpreter; no third one was made.
    expect(FakeWorker.made).toHaveLength(2);
    expect(kernel.generation).toBe(1);
    expect(kernel.state).toEqual({ kind: 'ready', restarted: true });
    FakeWorker.code = 'python';
    const next = kernel.run('print(1)');
    await settle();
    expect(FakeWorker.made[1].runs).toBe(1);
    kernel.dispose();
    await next;
  });

  it('does not count a period in which the machine did not run the page toward the grace', async () => {
    const { machine, worker, result } = await startRun('c');
    machine.starve(RUN_LIMITS.interruptGraceMs); // the grace passes on the wall, none of it on schedule
    await settle();
    expect(worker.isTerminated).toBe(false);
    machine.run(RUN_LIMITS.interruptTakeOnScheduleMs / 2);
    await settle();
    expect(worker.isTerminated).toBe(false);
    machine.run(RUN_LIMITS.interruptTakeOnScheduleMs / 2 + 2 * ON_SCHEDULE_TICK_MS);
    await settle();
    expect(worker.isTerminated).toBe(true);
    expect((await result).failures?.[0]).toEqual({ kind: 'time-limit', limitMs: LIMIT_MS, state: 'lost' });
  });

  it('a pure Python loop whose thread the machine does not run for most of the wall limit keeps its variables', async () => {
    const { machine, kernel, worker, result, ended } = await startRun('python');
    machine.starve(RUN_LIMITS.interruptTakeMs - 100);
    await settle();
    expect(worker.isTerminated).toBe(false);
    worker.runThread(); // the machine runs its thread: Python takes the flag
    await settle();
    expect(ended()).toBe(true);
    const stopped = await result;
    expect(stopped.status).toBe('timeout');
    expect(stopped.restarted).toBeUndefined();
    expect(stopped.failures?.[0]).toEqual({ kind: 'time-limit', limitMs: LIMIT_MS, state: 'kept' });
    expect(worker.isTerminated).toBe(false);
    expect(kernel.generation).toBe(0);
    // The spare it did not need is discarded.
    expect(FakeWorker.made.slice(1).every((spare) => spare.isTerminated)).toBe(true);
    kernel.dispose();
  });

  it('a pure Python loop taken at once on a machine that runs it is not killed, and its result comes back', async () => {
    const { machine, kernel, worker, result } = await startRun('python');
    machine.run(ON_SCHEDULE_TICK_MS);
    worker.runThread();
    await settle();
    machine.run(RUN_LIMITS.interruptTakeMs);
    expect(worker.isTerminated).toBe(false);
    expect((await result).failures?.[0]).toEqual({ kind: 'time-limit', limitMs: LIMIT_MS, state: 'kept' });
    kernel.dispose();
  });

  it('C code on a machine that never runs the page on schedule is killed at the wall limit', async () => {
    const { machine, worker, result } = await startRun('c');
    machine.starve(RUN_LIMITS.interruptTakeMs - 100);
    await settle();
    expect(worker.isTerminated).toBe(false);
    machine.starve(100);
    await settle();
    expect(worker.isTerminated).toBe(true);
    expect((await result).restarted).toBe(true);
  });
});
