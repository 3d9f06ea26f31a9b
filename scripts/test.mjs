// `npm test`: every suite (the end-to-end one without its @long tests; `npm run test:all` with
// them), in two lanes so that the checks that need no browser run while the production build and
// the end-to-end suite do. The browser lane builds, then runs the end-to-end suite; the checks lane
// lints. Then both take steps from one queue, whichever is free first: the unit tests in
// UNIT_PARTS parts (Vitest's --shard), pytest, and the type check, which waits for the build: it
// checks the route types the build generates too (tsconfig.routes.json), so the build skips its own
// pass of the same check (RUNPAD_BUILD_SKIP_TYPECHECK) and the e2e suite starts sooner. A queue,
// not a fixed lane, because the unit tests run one file at a time per two cores: left to the
// checks lane alone they ran for two minutes on one core after the browser lane had ended, the
// other core idle (bench/NOTES-ci.md, 2026-12-07). A lane stops at its first failure, and no lane
// takes a queued step after one failed; the exit code is non-zero if any step failed. The queued
// steps' and the lint's output is printed whole after both lanes end, so it never interleaves with
// the browser lane's, and a summary of every step comes last: the end of the log says what failed
// (CI shows only its tail), after the browser lane's own last lines again (Playwright's list of
// failed tests, which the other output would otherwise push out of that tail).
import { spawn } from 'node:child_process';
import { browserWorkers, suiteCores, unitWorkers } from './lanes.mjs';

// Next's telemetry is off for every build and server the suite starts.
process.env.NEXT_TELEMETRY_DISABLED = '1';
// `npm test` is the ten-minute suite: the end-to-end tests tagged @long run with `npm run test:all`
// (RUNPAD_E2E_LONG=run; playwright.config.ts).
const LONG_TESTS = process.env.RUNPAD_E2E_LONG === 'run' ? 'run' : 'skip';

/**
 * The unit tests' parts: each a Vitest run of a quarter of the files (by a hash of their paths).
 * Each run imports the shared module graph again (a few seconds of CPU); four parts bound the
 * single-core tail at the end to about a quarter of the unit tests.
 */
const UNIT_PARTS = 4;

// Both lanes sized from the cores this process may use (scripts/lanes.mjs), said first in the summary.
const summary = [`[test] ${suiteCores()} core(s): ${browserWorkers()} Playwright worker(s), ${unitWorkers()} Vitest file(s) at a time, the unit tests in ${UNIT_PARTS} parts taken by whichever lane is free`];

function runStep(script, sink, env = {}, args = []) {
  return new Promise((resolve) => {
    const started = Date.now();
    const name = [script, ...args].join(' ');
    const child = spawn('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => sink(chunk));
    child.stderr.on('data', (chunk) => sink(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const line = `[test] ${name}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s`;
      summary.push(line);
      sink(Buffer.from(`\n${line}\n`));
      resolve(code === 0);
    });
  });
}

let buildEnded;
const built = new Promise((resolve) => (buildEnded = resolve));

/** Output of the lint and the queued steps, printed whole at the end. */
const checksOutput = [];
const checksSink = (chunk) => checksOutput.push(chunk);

/** The steps either lane takes when it is free, in this order. */
const queue = [
  ...Array.from({ length: UNIT_PARTS }, (_, i) => ({ script: 'test:unit', args: [`--shard=${i + 1}/${UNIT_PARTS}`] })),
  { script: 'test:python', args: [] },
  { script: 'typecheck', args: [], afterBuild: true },
];
let queueFailed = false;

/** Takes queued steps until none is left or one failed; true when every step it took passed. */
async function takeFromQueue() {
  let ok = true;
  while (ok && !queueFailed && queue.length > 0) {
    const step = queue.shift();
    if (step.afterBuild) await built;
    ok = await runStep(step.script, checksSink, {}, step.args);
    if (!ok) queueFailed = true;
  }
  return ok && !queueFailed;
}

const BROWSER_TAIL_LINES = 40;
let browserTail = '';

async function browserLane() {
  const sink = (chunk) => {
    process.stdout.write(chunk);
    browserTail = (browserTail + chunk.toString()).split('\n').slice(-BROWSER_TAIL_LINES - 1).join('\n');
  };
  const ok = await runStep('build', sink, { RUNPAD_BUILD_SKIP_TYPECHECK: '1' });
  buildEnded();
  const passed = ok && (await runStep('test:browser', sink, { RUNPAD_E2E_LONG: LONG_TESTS }));
  return { passed, queued: passed ? await takeFromQueue() : true };
}

async function checksLane() {
  return (await runStep('lint', checksSink)) && (await takeFromQueue());
}

const [checksPassed, browser] = await Promise.all([checksLane(), browserLane()]);
process.stdout.write(Buffer.concat(checksOutput));
if (!browser.passed) process.stdout.write(`\n[test] the browser lane's last lines again:\n${browserTail}\n`);
// A queued step the checks lane never reached (it stopped at the lint) still counts as not run.
const failed = !checksPassed || !browser.passed || !browser.queued || queueFailed || queue.length > 0;
if (LONG_TESTS === 'skip') summary.push('[test] the long end-to-end tests (@long) were left out: `npm run test:all` runs every test');
process.stdout.write(`\n${summary.join('\n')}\n[test] ${failed ? 'FAILED' : 'all suites passed'}\n`);
process.exit(failed ? 1 : 0);
