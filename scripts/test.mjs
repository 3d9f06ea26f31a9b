// `npm test`: every suite, in two lanes so that the checks that need no browser run while the
// production build and the end-to-end suite do (the machine's second core is mostly idle during
// e2e). Each lane stops at its first failure; the exit code is non-zero if any step failed. A
// lane's output is printed whole when the lane ends, so the two never interleave.
import { spawn } from 'node:child_process';

const lanes = [
  ['lint', 'typecheck', 'test:unit', 'test:python'],
  ['test:e2e'],
];

function runStep(script, sink) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    child.stdout.on('data', (chunk) => sink(chunk));
    child.stderr.on('data', (chunk) => sink(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      sink(Buffer.from(`\n[test] ${script}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s\n`));
      resolve(code === 0);
    });
  });
}

async function runLane(steps, live) {
  const chunks = [];
  const sink = live ? (chunk) => process.stdout.write(chunk) : (chunk) => chunks.push(chunk);
  let ok = true;
  for (const step of steps) {
    ok = await runStep(step, sink);
    if (!ok) break;
  }
  if (!live) process.stdout.write(Buffer.concat(chunks));
  return ok;
}

// The e2e lane streams live (it is the long one); the other prints when it is done.
const results = await Promise.all([runLane(lanes[0], false), runLane(lanes[1], true)]);
const failed = results.some((ok) => !ok);
process.stdout.write(`\n[test] ${failed ? 'FAILED' : 'all suites passed'}\n`);
process.exit(failed ? 1 : 0);
