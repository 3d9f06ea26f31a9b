// Types of scripts/start.mjs's exports, for the tests that import it.
export type BuildState = { state: 'missing' } | { state: 'current' } | { state: 'stale'; changed: string[] };
/** The build of the app in `dir` (default this checkout) against its sources; unit tests do not count. */
export function buildState(dir?: string): BuildState;
/** True when there is no production build, or a source is newer than it. */
export function needsBuild(): boolean;
