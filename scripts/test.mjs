// `npm test`: every suite (the end-to-end one without its @long tests; `npm run test:all` with
// them), in two lanes so that the checks that need no browser run while the production build and
// the end-to-end suite do. The browser lane builds, then runs the end-to-end suite; the checks lane
// lints. Then both take steps from one queue, whichever is free first: the unit tests in parts
// made from each file's measured time, heaviest first and shrinking (scripts/unit-files.mjs), pytest,
// and the type check, which waits for the build: it
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
import fs from 'node:fs';
import { browserWorkers, suiteCores, unitWorkers } from './lanes.mjs';
import { readUnitWeights, unitParts, unitTestFiles } from './unit-files.mjs';

// Next's telemetry is off for every build and server the suite starts.
process.env.NEXT_TELEMETRY_DISABLED = '1';
// `npm test` is the ten-minute suite: the end-to-end tests tagged @long run with `npm run test:all`
// (RUNPAD_E2E_LONG=run; playwright.config.ts).
const LONG_TESTS = process.env.RUNPAD_E2E_LONG === 'run' ? 'run' : 'skip';

/**
 * The unit tests' parts: each a Vitest run of the files it names, heaviest first, shrinking to
 * ~30 s at the end (scripts/unit-files.mjs). Each run imports the shared module graph again (a few
 * seconds of CPU); small last parts keep either lane from finishing a long one alone. Each writes
 * Vitest's JSON report to .unit-reports/ (Playwright empties test-results/ when it starts), from which `node scripts/unit-weights.mjs` refreshes
 * the weights.
 */
const UNIT_REPORTS = '.unit-reports';
fs.rmSync(UNIT_REPORTS, { recursive: true, force: true });
const parts = unitParts(unitTestFiles(), readUnitWeights());

// Both lanes sized from the cores this process may use (scripts/lanes.mjs), said first in the summary.
const summary = [`[test] ${suiteCores()} core(s): ${browserWorkers()} Playwright worker(s), ${unitWorkers()} Vitest file(s) at a time, the unit tests in ${parts.length} parts (${parts.map((part) => `~${part.seconds} s`).join(', ')}) taken by whichever lane is free`];

function runStep(script, sink, env = {}, args = [], label = [script, ...args].join(' ')) {
  return new Promise((resolve) => {
    const started = Date.now();
    const name = label;
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

/** The unit tests' part `index` (0-based): a Vitest run of its files, with a JSON report. */
const unitStep = (part, index) => ({
  script: 'test:unit',
  args: ['--reporter=default', '--reporter=json', `--outputFile.json=${UNIT_REPORTS}/part-${index + 1}.json`, ...part.files],
  label: `test:unit part ${index + 1}/${parts.length} (${part.files.length} files)`,
});

/**
 * The steps either lane takes when it is free, in this order: the two largest unit parts, the type
 * check (by then the build has ended: it waits for it) and pytest, then the shrinking unit parts.
 */
const queue = [
  ...parts.slice(0, 2).map(unitStep),
  { script: 'typecheck', args: [], afterBuild: true },
  { script: 'test:python', args: [] },
  ...parts.slice(2).map((part, i) => unitStep(part, i + 2)),
];
let queueFailed = false;

/** Takes queued steps until none is left or one failed; true when every step it took passed. */
async function takeFromQueue() {
  let ok = true;
  while (ok && !queueFailed && queue.length > 0) {
    const step = queue.shift();
    if (step.afterBuild) await built;
    ok = await runStep(step.script, checksSink, {}, step.args, step.label);
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
