// `npm test`: every suite (the end-to-end one without its @long tests; `npm run test:all` with
// them), in two lanes so that the checks that need no browser run while the production build and
// the end-to-end suite do. The type check waits for the build: it checks the
// route types the build generates too (tsconfig.routes.json), so the build skips its own pass of
// the same check (RUNPAD_BUILD_SKIP_TYPECHECK) and the e2e suite starts sooner. Each lane stops at
// its first failure; the exit code is non-zero if any step failed. The short lane's output is
// printed whole after both lanes end, so the two never interleave, and a summary of every step
// comes last: the end of the log says what failed (CI shows only its tail), after the browser
// lane's own last lines again (Playwright's list of failed tests, which the short lane's output
// would otherwise push out of that tail).
import { spawn } from 'node:child_process';
import { browserWorkers, suiteCores, unitWorkers } from './lanes.mjs';

// Next's telemetry is off for every build and server the suite starts.
process.env.NEXT_TELEMETRY_DISABLED = '1';
// `npm test` is the ten-minute suite: the end-to-end tests tagged @long run with `npm run test:all`
// (RUNPAD_E2E_LONG=run; playwright.config.ts).
const LONG_TESTS = process.env.RUNPAD_E2E_LONG === 'run' ? 'run' : 'skip';

// Both lanes sized from the cores this process may use (scripts/lanes.mjs), said first in the summary.
const summary = [`[test] ${suiteCores()} core(s): ${browserWorkers()} Playwright worker(s), ${unitWorkers()} Vitest file(s) at a time`];

function runStep(script, sink, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => sink(chunk));
    child.stderr.on('data', (chunk) => sink(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const line = `[test] ${script}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s`;
      summary.push(line);
      sink(Buffer.from(`\n${line}\n`));
      resolve(code === 0);
    });
  });
}

let buildEnded;
const built = new Promise((resolve) => (buildEnded = resolve));

const BROWSER_TAIL_LINES = 40;
let browserTail = '';

async function browserLane() {
  const sink = (chunk) => {
    process.stdout.write(chunk);
    browserTail = (browserTail + chunk.toString()).split('\n').slice(-BROWSER_TAIL_LINES - 1).join('\n');
  };
  const ok = await runStep('build', sink, { RUNPAD_BUILD_SKIP_TYPECHECK: '1' });
  buildEnded();
  return ok && (await runStep('test:browser', sink, { RUNPAD_E2E_LONG: LONG_TESTS }));
}

async function checksLane() {
  const chunks = [];
  const sink = (chunk) => chunks.push(chunk);
  let ok = true;
  for (const step of ['lint', 'test:unit', 'test:python']) {
    ok = await runStep(step, sink);
    if (!ok) break;
  }
  if (ok) {
    await built;
    ok = await runStep('typecheck', sink);
  }
  return { ok, output: Buffer.concat(chunks) };
}

const [checks, browser] = await Promise.all([checksLane(), browserLane()]);
process.stdout.write(checks.output);
if (!browser) process.stdout.write(`\n[test] the browser lane's last lines again:\n${browserTail}\n`);
const failed = !checks.ok || !browser;
if (LONG_TESTS === 'skip') summary.push('[test] the long end-to-end tests (@long) were left out: `npm run test:all` runs every test');
process.stdout.write(`\n${summary.join('\n')}\n[test] ${failed ? 'FAILED' : 'all suites passed'}\n`);
process.exit(failed ? 1 : 0);
