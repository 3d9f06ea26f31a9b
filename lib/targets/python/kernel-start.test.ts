/**
 * When the interpreter starts (lib/targets/python/kernel.client.ts, `KernelStart`): a kernel made
 * to start when needed makes no worker until something needs Python (a run, a prefetch, Start),
 * reports `not-started` until then, and answers what it can without one (which stored runs it
 * lacks: all of them); a kernel made to start now makes its worker at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Kernel } from './kernel.client';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';

/** A Worker that records that it was made and never answers (the interpreter stays "starting"). */
class FakeWorker {
  static made = 0;
  constructor() {
    FakeWorker.made += 1;
  }
  addEventListener(): void {}
  removeEventListener(): void {}
  postMessage(): void {}
  terminate(): void {}
}

const CONFIG = {
  workerUrl: '/workers/python.worker.mjs?index=%2Fpyodide%2F&packages=%2Fpackages%2F&lock=%2Flock.json',
  indexURL: 'http://127.0.0.1/pyodide/',
  packageBaseUrl: 'http://127.0.0.1/packages/',
  packageLockUrl: 'http://127.0.0.1/lock.json',
  caps: OUTPUT_CAPS,
  duckdb: { assetUrl: 'http://127.0.0.1/duckdb/', extensionRepository: 'http://127.0.0.1/ext' },
};

afterEach(() => {
  vi.unstubAllGlobals();
  FakeWorker.made = 0;
});

describe('when the kernel starts its interpreter', () => {
  it('when needed: no worker until a run, a prefetch or Start asks for one, and only one then', () => {
    vi.stubGlobal('Worker', FakeWorker);
    const kernel = new Kernel(CONFIG, 'when-needed');
    const states: string[] = [];
    kernel.subscribe((state) => states.push(state.kind));
    expect(kernel.state).toEqual({ kind: 'not-started' });
    expect(kernel.started).toBe(false);
    // Reading what it lacks, asking for its package source and "restarting" nothing start nothing by themselves…
    expect(kernel.missingRuns(['a', 'b'])).toEqual(['a', 'b']);
    void kernel.packageSource();
    expect(FakeWorker.made).toBe(0);
    // …a prefetch of imports does (code is on its way), once. (Its head start is cut short by the
    // dispose below, which it reports as a warning.)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    kernel.prefetch('import json');
    kernel.start();
    expect(FakeWorker.made).toBe(1);
    expect(kernel.started).toBe(true);
    expect(states[0]).toBe('starting');
    kernel.dispose();
    warn.mockRestore();
  });

  it('when needed: Restart before any start is Start', () => {
    vi.stubGlobal('Worker', FakeWorker);
    const kernel = new Kernel(CONFIG, 'when-needed');
    kernel.restart();
    expect(FakeWorker.made).toBe(1);
    expect(kernel.state.kind).toBe('starting');
    kernel.dispose();
  });

  it('now: the worker is made with the kernel', () => {
    vi.stubGlobal('Worker', FakeWorker);
    const kernel = new Kernel(CONFIG);
    expect(FakeWorker.made).toBe(1);
    expect(kernel.state.kind).toBe('starting');
    kernel.dispose();
  });

  it('a disposed kernel starts nothing', () => {
    vi.stubGlobal('Worker', FakeWorker);
    const kernel = new Kernel(CONFIG, 'when-needed');
    kernel.dispose();
    kernel.start();
    expect(FakeWorker.made).toBe(0);
  });
});
