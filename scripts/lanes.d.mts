// Types of scripts/lanes.mjs's exports, for the configs that import it.
/** The cores the suite may use (os.availableParallelism(): the CPU affinity's count). */
export function suiteCores(): number;
/** Playwright workers: one more than the cores, at most four (RUNPAD_E2E_WORKERS overrides). */
export function browserWorkers(cores?: number): number;
/** Vitest files at a time in the checks lane: one per two cores, at least one (RUNPAD_UNIT_WORKERS overrides). */
export function unitWorkers(cores?: number): number;
