/**
 * The suite sized to the machine: lanes from the cores this process may use (the CPU affinity,
 * so `taskset -c 0 npm test` is a one-core run), and the end-to-end safety nets scaled by how
 * much slower the machine is (e2e/patience.ts).
 */
import { execFileSync } from 'node:child_process';
import type { Expect } from '@playwright/test';
import { describe, expect, it, vi } from 'vitest';
import { measureSlowness, patientExpect, REFERENCE_WORKLOAD_MS, workloadCpuMs } from '@/e2e/patience';
import { browserWorkers, unitWorkers } from '@/scripts/lanes.mjs';
import { readUnitWeights, unitParts, unitTestFiles } from '@/scripts/unit-files.mjs';

describe('lanes from the cores', () => {
  it('one core runs two browser tests and one unit file; two run three and one; never more than four browsers', () => {
    vi.stubEnv('RUNPAD_E2E_WORKERS', '');
    vi.stubEnv('RUNPAD_UNIT_WORKERS', '');
    expect([1, 2, 3, 4, 8, 64].map((cores) => browserWorkers(cores))).toEqual([2, 3, 4, 4, 4, 4]);
    expect([1, 2, 3, 4, 8].map((cores) => unitWorkers(cores))).toEqual([1, 1, 1, 2, 4]);
    vi.unstubAllEnvs();
  });

  it('counts the cores of the CPU affinity (taskset), not the machine', () => {
    const cores = (cpus: string) => Number(execFileSync('taskset', ['-c', cpus, process.execPath, '--input-type=module', '-e', "import { suiteCores } from './scripts/lanes.mjs'; console.log(suiteCores())"], { encoding: 'utf8' }).trim());
    expect(cores('0')).toBe(1);
    const all = Number(execFileSync('nproc', ['--all'], { encoding: 'utf8' }).trim());
    if (all > 1) expect(cores('0,1')).toBe(2);
  });
});

describe('safety nets scaled to the machine', () => {
  it('the factor is at least 1 and follows the CPU time of the workload', () => {
    const measured = measureSlowness(1);
    expect(measured.slowness).toBeGreaterThanOrEqual(1);
    expect(measured.slowness).toBeGreaterThanOrEqual(Math.min(8, Math.max(1, measured.cpu)));
    expect(workloadCpuMs()).toBeGreaterThan(REFERENCE_WORKLOAD_MS / 10);
  });

  it("scales an expectation's, a poll's and a configured timeout, and leaves values compared alone", () => {
    const seen: unknown[] = [];
    const matchers = { toBeVisible: (options?: unknown) => seen.push(['toBeVisible', options]), toEqual: (value: unknown) => seen.push(['toEqual', value]), toHaveText: (text: string, options?: unknown) => seen.push(['toHaveText', text, options]) };
    const base = Object.assign(() => ({ ...matchers, not: matchers }), {
      poll: (_poll: unknown, options?: unknown) => (seen.push(['poll', options]), matchers),
      configure: (options: unknown) => (seen.push(['configure', options]), base),
    }) as unknown as Expect;
    const previous = process.env.RUNPAD_E2E_SLOWNESS;
    process.env.RUNPAD_E2E_SLOWNESS = '2.5';
    try {
      type FakeMatchers = typeof matchers & { not: typeof matchers };
      const patient = patientExpect(base) as unknown as ((subject: unknown) => FakeMatchers) & { poll: (poll: unknown, options?: unknown) => unknown; configure: (options: unknown) => unknown };
      patient('locator').toBeVisible({ timeout: 60_000 });
      patient('locator').not.toBeVisible({ timeout: 1_000 });
      patient('locator').toHaveText('x', { timeout: 100 });
      patient('locator').toBeVisible();
      patient({ timeout: 3 }).toEqual({ timeout: 3 });
      patient.poll(() => 1, { timeout: 10_000, intervals: [50] });
      patient.configure({ timeout: 4 });
    } finally {
      if (previous === undefined) delete process.env.RUNPAD_E2E_SLOWNESS;
      else process.env.RUNPAD_E2E_SLOWNESS = previous;
    }
    expect(seen).toEqual([
      ['toBeVisible', { timeout: 150_000 }],
      ['toBeVisible', { timeout: 2_500 }],
      ['toHaveText', 'x', { timeout: 250 }],
      ['toBeVisible', undefined],
      ['toEqual', { timeout: 3 }],
      ['poll', { timeout: 25_000, intervals: [50] }],
      ['configure', { timeout: 10 }],
    ]);
  });
});

describe('the unit tests in parts by their measured time', () => {
  const files = Array.from({ length: 60 }, (_, i) => `lib/f${String(i).padStart(2, '0')}.test.ts`);
  // A few heavy files, many light ones, and files the weights do not know (new since the last record).
  const weights = Object.fromEntries(files.slice(0, 50).map((file, i) => [file, i < 4 ? 80 - i * 10 : (i % 7) + 0.2]));

  it('puts every file in exactly one part, heaviest first, parts shrinking to the smallest', () => {
    const parts = unitParts(files, weights, { smallest: 30 });
    expect(parts.flatMap((part) => part.files).sort()).toEqual(files);
    expect(parts[0].files).toContain('lib/f00.test.ts');
    expect(parts.length).toBeGreaterThan(3);
    const sizes = parts.map((part) => part.seconds);
    // Each part is at most the one before it, save the last, which may take in a remainder under half the smallest.
    for (let i = 1; i < sizes.length - 1; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]);
    expect(sizes.at(-1)).toBeLessThanOrEqual(30 * 1.5);
  });

  it('weighs a file with no record as the median file, and splits without any record at all', () => {
    const parts = unitParts(files, {}, { smallest: 10 });
    expect(parts.flatMap((part) => part.files).sort()).toEqual(files);
    expect(parts.length).toBeGreaterThan(1);
  });

  it('knows the test files of this project and has a weight for most of them', () => {
    const known = unitTestFiles();
    expect(known).toContain('tests/lanes.test.ts');
    expect(known.every((file) => file.endsWith('.test.ts') && !file.startsWith('node_modules/'))).toBe(true);
    const weighed = Object.keys(readUnitWeights()).filter((file) => known.includes(file));
    expect(weighed.length).toBeGreaterThan(known.length / 2);
  });
});
