/**
 * The end-to-end suite's safety nets (a test's time limit, an expectation's, a poll's) scaled to
 * the machine it runs on. They are hang detectors, not expectations: a test waits for the states
 * the page announces, and a net only ends a wait that no state will end. Written as numbers tuned
 * on the machine the suite was written on, they raced the CPU work on a machine 2–3× slower (a
 * 60 s expectation over seven cells and three engines' starts). So every net is multiplied by how
 * much slower this machine is, measured once per run by playwright.config.ts (the main process)
 * and handed to its workers in RUNPAD_E2E_SLOWNESS:
 *
 * - the CPU: the CPU time of a fixed JavaScript workload against its time on the reference machine
 *   (CPU time, not wall time: the same on a busy machine as on a quiet one, save cache effects);
 * - the load: the machine's one-minute load average per core the suite may use, when above one
 *   (other work on the machine, which the suite's own lanes are sized not to cause).
 *
 * At least 1 (nets never shrink below the tuned ones), at most MAX_SLOWNESS (a hang still ends).
 */
import os from 'node:os';
import type { Expect } from '@playwright/test';

/** The workload's CPU time on the machine the nets were tuned on (best of five; bench/NOTES-ci.md). */
export const REFERENCE_WORKLOAD_MS = 60;
const MAX_SLOWNESS = 8;

/** Object churn, strings, numbers and a Map: the kind of work the app, its servers and the test runner do. */
function workload(): number {
  let sum = 0;
  const map = new Map<string, { n: number; s: string }>();
  for (let i = 0; i < 400_000; i++) {
    const key = `k${i % 5000}`;
    const entry = map.get(key) ?? { n: 0, s: '' };
    entry.n += i & 7;
    entry.s = (entry.s + key).slice(-32);
    map.set(key, entry);
    sum += Math.sqrt(i) * (entry.n % 13);
  }
  return sum + JSON.stringify([...map.values()].slice(0, 200)).length;
}

/** The workload's CPU time in ms, best of five (the first runs pay for the JIT). */
export function workloadCpuMs(): number {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const before = process.cpuUsage();
    workload();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** How much slower than the reference this machine is now, for `cores` cores (see above). */
export function measureSlowness(cores: number): { slowness: number; cpu: number; load: number } {
  const cpu = workloadCpuMs() / REFERENCE_WORKLOAD_MS;
  const load = os.loadavg()[0] / cores;
  const slowness = Math.min(MAX_SLOWNESS, Math.max(1, cpu) * Math.max(1, load));
  return { slowness: Number(slowness.toFixed(2)), cpu: Number(cpu.toFixed(2)), load: Number(load.toFixed(2)) };
}

/**
 * The run's factor, measured once per process tree: RUNPAD_E2E_SLOWNESS when a parent (or the
 * person running the suite) set it, else measured now and set there for the children. Said once.
 */
export function runSlowness(cores: number, what: string): number {
  if (process.env.RUNPAD_E2E_SLOWNESS) return slowness();
  const measured = measureSlowness(cores);
  process.env.RUNPAD_E2E_SLOWNESS = String(measured.slowness);
  console.log(`[${what}] safety nets x${measured.slowness} (CPU x${measured.cpu}, load per core ${measured.load}, ${cores} core(s))`);
  return measured.slowness;
}

/** This run's factor: measured by the config, read by its workers (1 when neither measured nor given). */
export function slowness(): number {
  const given = Number(process.env.RUNPAD_E2E_SLOWNESS);
  return Number.isFinite(given) && given >= 1 ? given : 1;
}

/** A safety net of `ms` on the reference machine, on this one. */
export const patience = (ms: number): number => Math.round(ms * slowness());

/** Matchers that compare values (their last argument may be a value with a `timeout` field): never scaled. */
const VALUE_MATCHERS = new Set(['toBe', 'toEqual', 'toStrictEqual', 'toMatchObject', 'toContain', 'toContainEqual', 'toHaveProperty', 'toThrow', 'toMatch']);

function withPatience(options: unknown): unknown {
  if (!options || typeof options !== 'object' || Array.isArray(options) || Object.getPrototypeOf(options) !== Object.prototype) return options;
  const { timeout } = options as { timeout?: unknown };
  return typeof timeout === 'number' && timeout > 0 ? { ...options, timeout: patience(timeout) } : options;
}

function patientMatchers<T extends object>(matchers: T): T {
  return new Proxy(matchers, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'not' || property === 'resolves' || property === 'rejects') return patientMatchers(value as object);
      if (typeof value !== 'function' || typeof property !== 'string' || VALUE_MATCHERS.has(property)) return value;
      return (...args: unknown[]) => {
        if (args.length > 0) args[args.length - 1] = withPatience(args[args.length - 1]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * Playwright's `expect` whose explicit timeouts (`toBeVisible({ timeout })`, `expect.poll(fn,
 * { timeout })`, `toPass({ timeout })`, `expect.configure({ timeout })`) are scaled by `patience`;
 * the default one is scaled in playwright.config.ts.
 */
export function patientExpect(base: Expect): Expect {
  return new Proxy(base, {
    apply(target, thisArg, args: unknown[]) {
      return patientMatchers(Reflect.apply(target, thisArg, args) as object);
    },
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'poll') return (poll: unknown, options?: unknown) => (value as (...a: unknown[]) => object).call(target, poll, withPatience(options));
      if (property === 'soft') return (...args: unknown[]) => patientMatchers((value as (...a: unknown[]) => object).apply(target, args));
      if (property === 'configure') return (options: unknown) => patientExpect((value as (o: unknown) => Expect).call(target, withPatience(options)));
      return value;
    },
  });
}
