// `npm start`: checks the configuration (scripts/doctor.mjs: every problem printed with its fix,
// exit 1, nothing started), builds first when there is no current build or the sources changed
// since (saying so, with the build's own output and a line every 30 s; RUNPAD_NO_BUILD=1 refuses
// instead, naming the command to run), then serves the app on PORT (default 3000). Next's
// telemetry is off (NEXT_TELEMETRY_DISABLED=1) for everything it runs. The build it makes skips
// Next's type check (types are the suite's to check, `npm test`; that pass was a quarter of a first
// start's build on a loaded 2-core machine) and, the first time, Turbopack's build cache
// (buildSettings): what a start does not need to answer.
//
// Stopping. Next's own CLI runs with this Node binary (no `npx` or shell in between) in a process
// group of its own, and every signal goes to that whole group:
// - SIGINT and SIGTERM are forwarded; SIGHUP is forwarded as SIGTERM (Next handles SIGINT and
//   SIGTERM gracefully: it stops accepting, lets in-flight requests finish, then exits; a SIGHUP
//   would kill it on the spot).
// - npm forwards a signal only to the shell it runs this script in, and /bin/sh (dash) does not
//   pass it on: on SIGTERM the shell dies and this script is re-parented. So the parent is watched,
//   and its disappearance counts as SIGTERM.
// - If the server has not exited SHUTDOWN_GRACE_MS after the first signal, its group is killed.
// - When the server exits, anything left in its group is killed, and this script exits with the
//   server's code.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkConfiguration, loadEnvFiles } from './doctor.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['app', 'components', 'lib', 'public', 'scripts'];
const SOURCE_FILES = ['package-lock.json', 'next.config.ts', 'proxy.ts', 'postcss.config.mjs', 'tsconfig.json'];

/** While building, how often to say it is still building. */
const BUILD_HEARTBEAT_MS = 30_000;
/** After the first stop signal, how long the server may take before its process group is killed. */
const SHUTDOWN_GRACE_MS = 8_000;
/** How often to check that the parent process (npm's shell) is still there. */
const PARENT_POLL_MS = 250;

/** Unit tests are not part of the build: changing one does not make it out of date. */
const NOT_BUILT = /\.test\.tsx?$/;

/**
 * Folders that hold no source: installed packages, the copied engines and built workers under
 * public/, and CPython's bytecode caches (tests that run lib/targets/python/engine/runpad under CPython write them).
 */
const NOT_SOURCE_DIRS = new Set(['node_modules', 'pyodide', 'workers', '__pycache__']);

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return NOT_BUILT.test(entry) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(entry)) {
    if (NOT_SOURCE_DIRS.has(child)) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** The sources under `dir` changed since `since` (paths relative to it), newest first. */
function changedSince(dir, since) {
  const changed = [];
  const visit = (entry) => {
    if (!fs.existsSync(entry)) return;
    const stat = fs.statSync(entry);
    if (!stat.isDirectory()) {
      if (stat.mtimeMs > since && !NOT_BUILT.test(entry)) changed.push({ file: path.relative(dir, entry), mtime: stat.mtimeMs });
      return;
    }
    for (const child of fs.readdirSync(entry)) {
      if (NOT_SOURCE_DIRS.has(child)) continue;
      visit(path.join(entry, child));
    }
  };
  for (const entry of [...SOURCE_DIRS, ...SOURCE_FILES]) visit(path.join(dir, entry));
  return changed.sort((a, b) => b.mtime - a.mtime).map((c) => c.file);
}

/**
 * The build of the app in `dir` (default this one): { state: 'missing' } with no production build,
 * { state: 'stale', changed } when a source is newer, else { state: 'current' }.
 */
export function buildState(dir = root) {
  const id = path.join(dir, '.next/BUILD_ID');
  if (!fs.existsSync(id)) return { state: 'missing' };
  const built = fs.statSync(id).mtimeMs;
  if (![...SOURCE_DIRS, ...SOURCE_FILES].some((entry) => newestMtime(path.join(dir, entry)) > built)) return { state: 'current' };
  return { state: 'stale', changed: changedSince(dir, built) };
}

/** True when there is no production build, or a source is newer than it. */
export function needsBuild() {
  return buildState().state !== 'current';
}

/** "lib/a.ts, app/b.tsx and 3 more". */
function someFiles(files) {
  const shown = files.slice(0, 3).join(', ');
  return files.length > 3 ? `${shown} and ${files.length - 3} more` : shown;
}

/** Why a build is needed, in words. */
function buildReason(build) {
  return build.state === 'missing' ? 'there is no build yet' : `the build is older than the sources (changed since: ${someFiles(build.changed)})`;
}

/** The child running now (build, assets or server), each the leader of its own process group. */
let current = null;
/** The signal the children are stopped with, once a stop was asked for. */
let stopSignal = null;
let killTimer = null;

function signalGroup(child, signal) {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error; // the group is gone already
  }
}

function stop(signal) {
  const forwarded = signal === 'SIGHUP' ? 'SIGTERM' : signal;
  stopSignal ??= forwarded;
  if (!current) return; // between children: main() sees stopSignal and starts nothing more
  signalGroup(current, forwarded);
  killTimer ??= setTimeout(() => {
    console.error(`runpad: still running ${SHUTDOWN_GRACE_MS / 1000} s after ${stopSignal}; killing it`);
    signalGroup(current, 'SIGKILL');
  }, SHUTDOWN_GRACE_MS);
}

function watchParent() {
  const parent = process.ppid;
  if (parent <= 1) return; // started by init or as PID 1: no parent to lose
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    console.error('runpad: the parent process went away; stopping');
    stop('SIGTERM');
  }, PARENT_POLL_MS);
  timer.unref();
}

/** Runs a command as the leader of a new process group; resolves with how it exited. */
function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', detached: true, env: { ...process.env, ...env } });
    current = child;
    child.once('error', (error) => {
      current = null;
      reject(error);
    });
    child.once('exit', (code, signal) => {
      current = null;
      signalGroup(child, 'SIGKILL'); // nothing it started outlives it
      resolve({ code, signal });
    });
    if (stopSignal) stop(stopSignal); // asked to stop while it was being spawned
  });
}

/** RUNPAD_NO_BUILD=1 (or true): never build here; an out-of-date build is refused. */
function noBuild() {
  return process.env.RUNPAD_NO_BUILD === '1' || process.env.RUNPAD_NO_BUILD === 'true';
}

/**
 * What the build `npm start` makes leaves out: Next's type check always (the suite's to run), and
 * Turbopack's build cache on a first build (written for a later build to read: ~20 s of a first
 * start on a 2-core machine, bench/NOTES-ci.md), unless RUNPAD_BUILD_CACHE says otherwise.
 */
function buildSettings(build) {
  const cache = process.env.RUNPAD_BUILD_CACHE ?? (build.state === 'missing' ? 'off' : undefined);
  return { RUNPAD_BUILD_SKIP_TYPECHECK: '1', ...(cache === undefined ? {} : { RUNPAD_BUILD_CACHE: cache }) };
}

/** "1 min 30 s", "45 s". */
function elapsed(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function exitCode({ code, signal }) {
  if (code !== null) return code;
  return 128 + (os.constants.signals[signal] ?? 0);
}

async function main() {
  // A closed stdout (the terminal or log pipe went away) must not crash this script and orphan the server.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
  watchParent();

  loadEnvFiles();
  // Next's telemetry is off for everything started from here (its notice is never printed).
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  const { problems, text, warningText } = await checkConfiguration({ database: false, heading: 'runpad: cannot start' });
  if (warningText) console.warn(warningText);
  if (problems.length > 0) {
    console.error(text);
    process.exit(1);
  }

  let prepared;
  const build = buildState();
  if (build.state !== 'current') {
    if (noBuild()) {
      console.error(`runpad: cannot start: ${buildReason(build)}, and RUNPAD_NO_BUILD=1 keeps npm start from building. Run \`npm run build\`, then \`npm start\` again.`);
      process.exit(1);
    }
    console.log(`runpad: ${buildReason(build)}; building first (npm run build, a few minutes; its output follows)…`);
    const started = Date.now();
    const heartbeat = setInterval(() => console.log(`runpad: still building (${elapsed(Date.now() - started)} so far)…`), BUILD_HEARTBEAT_MS);
    prepared = await run('npm', ['run', 'build'], buildSettings(build)).finally(() => clearInterval(heartbeat));
    if (exitCode(prepared) === 0) console.log(`runpad: built in ${elapsed(Date.now() - started)}; starting the server.`);
    else if (!stopSignal) console.error(`runpad: the build failed (exit ${exitCode(prepared)}); its output is above. Fix what it names, then \`npm start\` again.`);
  } else {
    prepared = await run('npm', ['run', 'assets']);
  }
  if (exitCode(prepared) !== 0) process.exit(exitCode(prepared));
  if (stopSignal) process.exit(128 + os.constants.signals[stopSignal]);

  const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const port = process.env.PORT ?? '3000';
  const server = await run(process.execPath, [nextCli, 'start', '-p', port]);
  clearTimeout(killTimer);
  process.exit(exitCode(server));
}

const invokedDirectly = process.argv[1] && fs.realpathSync(path.resolve(process.argv[1])) === fs.realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) {
  main().catch((error) => {
    console.error('runpad:', error);
    signalGroup(current, 'SIGKILL');
    process.exit(1);
  });
}
