// How many of the suite's things run at once, from the cores this process may use
// (os.availableParallelism(): the CPU affinity's count, so `taskset -c 0 npm test` sees one).
// The browser lane's Playwright workers are one more than the cores (at most four): the extra one
// fills the others' waits (model pacing, time limits, servers starting). The checks lane's Vitest
// runs one file at a time per two cores beside them. Two cores run three browser tests and one unit
// file at a time (four and one before: the slower machine's failures), one core two and one
// (docs/DECISIONS.md, "The test suite's shape"). RUNPAD_E2E_WORKERS and RUNPAD_UNIT_WORKERS
// override (a developer's single run).
import os from 'node:os';

/** The cores the suite may use. */
export function suiteCores() {
  return Math.max(1, os.availableParallelism());
}

function override(name) {
  const given = Number(process.env[name]);
  return Number.isInteger(given) && given > 0 ? given : null;
}

/** Playwright workers: one more than the cores, at most four. */
export function browserWorkers(cores = suiteCores()) {
  return override('RUNPAD_E2E_WORKERS') ?? Math.min(4, cores + 1);
}

/** Vitest files at a time in the checks lane: one per two cores, at least one. */
export function unitWorkers(cores = suiteCores()) {
  return override('RUNPAD_UNIT_WORKERS') ?? Math.max(1, Math.floor(cores / 2));
}
