/**
 * Python's runner reports its package source (the mirror Pyodide loads from) like R's runner its
 * repository, so the page builds the request's `packageSources` by iterating runners; SQL, in the
 * same interpreter, has none.
 */
import { describe, expect, it } from 'vitest';
import type { Kernel, KernelState } from './kernel.client';
import { createPythonRunner } from './runner.client';
import { createSqlRunner } from '../sql/runner.client';
import type { Engine, TargetConfig } from '../engine';
import type { RunnerEnv } from '../runner-env';

/** An interpreter whose package source answers when the test says so. */
function fakeKernel() {
  let answer: (value: 'reachable' | 'unreachable') => void = () => undefined;
  const asked = new Promise<'reachable' | 'unreachable'>((resolve) => {
    answer = resolve;
  });
  const listeners = new Set<(state: KernelState) => void>();
  const kernel = {
    state: { kind: 'ready', restarted: false } satisfies KernelState,
    packageSource: () => asked,
    subscribe: (listener: (state: KernelState) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    prefetchSql: () => undefined,
  } as unknown as Kernel;
  return { kernel, answer, listeners };
}

const env = (kernel: Kernel): RunnerEnv => ({
  engine: <E extends Engine>() => kernel as unknown as E,
  config: { webrBasePath: '/webr/test/', rPackageRepoUrl: 'http://127.0.0.1:9/' } as TargetConfig,
});

describe("Python's runner", () => {
  it('knows nothing of its package source until the interpreter answers, then tells its subscribers', async () => {
    const { kernel, answer } = fakeKernel();
    const runner = createPythonRunner(env(kernel));
    const heard: string[] = [];
    const unsubscribe = runner.subscribe(() => heard.push(runner.packageSource?.() ?? 'none'));
    expect(runner.packageSource?.()).toBe('unknown');
    answer('unreachable');
    await expect.poll(() => runner.packageSource?.()).toBe('unreachable');
    expect(heard).toEqual(['unreachable']);
    unsubscribe();
  });

  it('SQL, in the same interpreter, downloads nothing: its runner has no package source', () => {
    const { kernel } = fakeKernel();
    expect(createSqlRunner(env(kernel)).packageSource).toBeUndefined();
  });
});
