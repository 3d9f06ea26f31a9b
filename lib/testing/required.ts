/**
 * What a test needs from the machine (a Postgres or Redis server, nginx, Caddy, Debian's python3
 * packages…) is required under CI=true: `.ci/run` installs and starts each, so one missing there
 * is a failure naming it, never a silently skipped test. Elsewhere (a developer's machine without
 * Redis, say) the test is skipped with the same reason printed.
 *
 * The only skips left under CI are for what the machine cannot reach (a CDN); those do not use this.
 */
export const UNDER_CI = /^(1|true)$/i.test(process.env.CI ?? '');

/**
 * `reason` is why something a test needs is missing (null: nothing is). Under CI it throws, naming
 * what is missing; elsewhere it prints the reason and returns it, for the caller to skip with.
 */
export function skipOutsideCi(reason: string | null): string | null {
  if (reason === null) return null;
  if (UNDER_CI) throw new Error(`${reason}; under CI=true every service and package the tests need must be there (.ci/run installs and starts them)`);
  console.warn(`skipped (not under CI): ${reason}`);
  return reason;
}
