// The door: `npm ci && npm start` on a clean clone, with an empty npm cache, to a usable page.
// `node bench/door.mjs [repository] [ref]` (default: this repository's HEAD) clones it into a
// scratch directory, runs `npm ci --cache <empty directory>` and then `npm start` on port
// 3400 + BENCH_PORT_OFFSET, and measures until the home page answers 200 with the app's HTML.
// Prints one JSON line: each phase's wall seconds and CPU seconds (user + system; for the first
// start, what it spent before the server: the assets and the build), the cores and the load
// average at the start and end: on a shared machine the CPU seconds are the figure to compare. The clone and the cache are removed afterwards (BENCH_DOOR_KEEP=1 keeps them).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const PORT = 3400 + OFFSET;
const source = process.argv[2] ?? process.cwd();
const ref = process.argv[3] ?? 'HEAD';
/** How long the page may take to answer before the run counts as failed. */
const PAGE_LIMIT_MS = 30 * 60_000;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-door-'));
const clone = path.join(scratch, 'runpad');
const cache = path.join(scratch, 'npm-cache');
fs.mkdirSync(cache);

/** CPU seconds (user + system) this process's reaped children have used so far. */
function childrenCpu() {
  // cutime and cstime, fields 16 and 17 of /proc/self/stat, in clock ticks (100 a second on Linux).
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs a command to its end, timing it; throws on failure. */
function timed(command, args, options) {
  const cpuBefore = childrenCpu();
  const started = Date.now();
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  return { seconds: (Date.now() - started) / 1000, cpuSeconds: Math.round((childrenCpu() - cpuBefore) * 10) / 10 };
}

/**
 * CPU seconds of the processes in process group `group` (npm start, its shell and scripts/start.mjs),
 * with the children they have reaped: the assets and the build. The server runs in a group of its
 * own and is not counted.
 */
function groupCpu(group) {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process ended meanwhile
    }
  }
  return Math.round(ticks) / 100;
}

async function pageAnswers() {
  try {
    const response = await fetch(`http://127.0.0.1:${PORT}/`);
    const text = await response.text();
    return response.status === 200 && text.includes('<html');
  } catch {
    return false;
  }
}

const load = () => os.loadavg().map((n) => Math.round(n * 10) / 10);
const result = { source, ref, node: process.version, cores: os.availableParallelism(), loadAtStart: load() };
let server = null;
try {
  execFileSync('git', ['clone', '--quiet', '--no-checkout', source, clone]);
  execFileSync('git', ['-C', clone, 'checkout', '--quiet', ref]);
  result.commit = execFileSync('git', ['-C', clone, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  result.npmCi = timed('npm', ['ci', '--cache', cache, '--no-audit', '--no-fund'], { cwd: clone });
  const started = Date.now();
  const log = fs.openSync(path.join(scratch, 'start.log'), 'w');
  server = spawn('npm', ['start'], { cwd: clone, env: { ...process.env, PORT: String(PORT) }, stdio: ['ignore', log, log], detached: true });
  let exited = false;
  server.on('exit', () => (exited = true));
  while (!(await pageAnswers())) {
    if (exited) throw new Error(`npm start exited before the page answered:\n${fs.readFileSync(path.join(scratch, 'start.log'), 'utf8').slice(-3000)}`);
    if (Date.now() - started > PAGE_LIMIT_MS) throw new Error('the page did not answer within 30 minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  result.firstStartToPage = { seconds: (Date.now() - started) / 1000, cpuSecondsBeforeServer: groupCpu(server.pid) };
  const said = fs.readFileSync(path.join(scratch, 'start.log'), 'utf8');
  result.buildSaid = said.match(/runpad: built in [^;]+/)?.[0] ?? null;
  result.total = { seconds: Math.round((result.npmCi.seconds + result.firstStartToPage.seconds) * 10) / 10 };
} finally {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  result.loadAtEnd = load();
  if (process.env.BENCH_DOOR_KEEP !== '1') setTimeout(() => fs.rmSync(scratch, { recursive: true, force: true }), 3000);
  else result.scratch = scratch;
  console.log(JSON.stringify(result));
}
