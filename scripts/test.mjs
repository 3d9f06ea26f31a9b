// `npm test`: every suite, in two lanes so that the checks that need no browser run while the
// production build and the end-to-end suite do. The type check waits for the build: it checks the
// route types the build generates too (tsconfig.routes.json), so the build skips its own pass of
// the same check (RUNPAD_BUILD_SKIP_TYPECHECK) and the e2e suite starts sooner. Each lane stops at
// its first failure; the exit code is non-zero if any step failed. The short lane's output is
// printed whole when it ends, so the two never interleave.
import { spawn } from 'node:child_process';

function runStep(script, sink, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => sink(chunk));
    child.stderr.on('data', (chunk) => sink(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      sink(Buffer.from(`\n[test] ${script}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s\n`));
      resolve(code === 0);
    });
  });
}

let buildEnded;
const built = new Promise((resolve) => (buildEnded = resolve));

async function browserLane() {
  const sink = (chunk) => process.stdout.write(chunk);
  const ok = await runStep('build', sink, { RUNPAD_BUILD_SKIP_TYPECHECK: '1' });
  buildEnded();
  return ok && (await runStep('test:browser', sink));
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
  process.stdout.write(Buffer.concat(chunks));
  return ok;
}

const results = await Promise.all([checksLane(), browserLane()]);
const failed = results.some((ok) => !ok);
process.stdout.write(`\n[test] ${failed ? 'FAILED' : 'all suites passed'}\n`);
process.exit(failed ? 1 : 0);
