import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { e2ePort } from './ports';
import { patience } from './patience';

/**
 * The server's life cycle: `/api/health` as readiness, and `npm start` stopping cleanly — after a
 * stop signal the port is free and every process `npm start` started has exited within 10 s.
 *
 * SIGTERM goes to npm's PID only, as Docker or Kubernetes send it. SIGINT goes to npm's process
 * group, as Ctrl-C in a terminal sends it: npm forwards a signal only to the shell running the
 * script, and dash (Debian's /bin/sh) neither passes SIGINT on nor exits on it, so a SIGINT to npm's
 * PID alone never reaches scripts/start.mjs (npm and the server both keep running). A server that
 * ignores the signal (stopped with SIGSTOP) is killed after start.mjs's grace period, still within 10 s.
 *
 * Needs a current production build (`npm run build`): with a stale one, `npm start` would rebuild
 * .next under the e2e servers that run from it, so the tests refuse to start.
 */
test.describe.configure({ mode: 'serial' });

const STOP_DEADLINE_MS = 10_000;
const READY_DEADLINE_MS = 120_000;
const AUTH_SECRET = 'lifecycle-secret-lifecycle-secret-012345';
/** What /api/health reports as the app's version (package.json). */
const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }).version;

type Proc = { pid: number; pgid: number; startTime: string };
type App = { npm: ChildProcess; port: number; processes: Map<string, Proc>; output: () => string };

const apps: App[] = [];
const tempDirs: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** ppid, process group, state and start time (which tells a reused PID apart) from /proc. */
function procStat(pid: number): { ppid: number; pgid: number; state: string; startTime: string } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: fields[19] };
  } catch {
    return null;
  }
}

/** `pid` and all its descendants now. */
function processTree(pid: number): Proc[] {
  const all = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => ({ pid: Number(name), stat: procStat(Number(name)) }));
  const root = procStat(pid);
  const tree: Proc[] = root ? [{ pid, pgid: root.pgid, startTime: root.startTime }] : [];
  for (let i = 0; i < tree.length; i++) {
    for (const { pid: child, stat } of all) {
      if (stat?.ppid === tree[i].pid) tree.push({ pid: child, pgid: stat.pgid, startTime: stat.startTime });
    }
  }
  return tree;
}

function isAlive(proc: Proc): boolean {
  const stat = procStat(proc.pid);
  return stat !== null && stat.startTime === proc.startTime && stat.state !== 'Z';
}

function remember(app: App): void {
  if (!app.npm.pid) return;
  for (const proc of processTree(app.npm.pid)) app.processes.set(`${proc.pid}/${proc.startTime}`, proc);
}

/** Whether a TCP connection to the port is accepted (false once it is refused). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(true); // not refused: something holds the port
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether this process can listen on the port (i.e. nobody else does). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

async function healthStatus(port: number): Promise<number | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** `npm start` on `port` with its own data directory; resolves once /api/health answers `ready`. */
async function npmStart(port: number, ready: (status: number) => boolean, extraEnv: Record<string, string> = {}): Promise<App> {
  const { needsBuild } = (await import(new URL('../scripts/start.mjs', import.meta.url).href)) as { needsBuild: () => boolean };
  expect(needsBuild(), 'the build in .next is older than the sources; run `npm run build` first (npm start would rebuild it under the running e2e servers)').toBe(false);
  expect(await canListen(port), `port ${port} is taken before the test`).toBe(true);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-lifecycle-'));
  tempDirs.push(dataDir);
  const env = {
    ...process.env,
    PORT: String(port),
    RUNPAD_DATA_DIR: dataDir,
    AUTH_SECRET,
    RUNPAD_LOG_LEVEL: 'warn',
    // Embedded database and blobs in dataDir, whatever the environment says.
    DATABASE_URL: '',
    S3_BUCKET: '',
    REDIS_URL: '',
    ...extraEnv,
  };
  // Its own process group, so afterAll can take down npm and its shell whatever happens.
  const npm = spawn('npm', ['start'], { env, stdio: 'pipe', detached: true });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  npm.stdout?.on('data', collect);
  npm.stderr?.on('data', collect);
  const app: App = { npm, port, processes: new Map(), output: () => output };
  apps.push(app);

  const deadline = Date.now() + READY_DEADLINE_MS;
  let status: number | null = null;
  for (;;) {
    remember(app);
    if (hasExited(npm)) throw new Error(`npm start exited (${npm.exitCode ?? npm.signalCode}) before /api/health was ready:\n${output}`);
    status = await healthStatus(port);
    if (status !== null && ready(status)) break;
    if (Date.now() > deadline) throw new Error(`/api/health not ready within ${READY_DEADLINE_MS / 1000} s (last status ${status}):\n${output}`);
    await sleep(500);
  }
  remember(app);
  expect(serverProcess(app), `no Next server among the processes under npm start:\n${output}`).toBeDefined();
  return app;
}

/** The Next server: the one process under npm start (besides npm itself) leading its own process group. */
function serverProcess(app: App): Proc | undefined {
  return processTree(app.npm.pid!).find((proc) => proc.pid === proc.pgid && proc.pid !== app.npm.pid);
}

/** Polls `condition` until it holds or `deadline` (epoch ms) passes; returns its last value. */
async function until(condition: () => boolean | Promise<boolean>, deadline: number): Promise<boolean> {
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

async function expectStopsCleanly(app: App, signal: NodeJS.Signals, send: () => void): Promise<void> {
  const { npm, port } = app;
  const processes = [...app.processes.values()];
  send();
  const deadline = Date.now() + STOP_DEADLINE_MS;

  const refused = await until(async () => !(await accepts(port)), deadline);
  expect(refused, `port ${port} still accepts connections ${STOP_DEADLINE_MS / 1000} s after ${signal}:\n${app.output()}`).toBe(true);
  expect(await canListen(port), `something still listens on port ${port} after ${signal}`).toBe(true);

  const allExited = await until(() => processes.every((proc) => !isAlive(proc)), deadline);
  const left = processes.filter(isAlive).map((proc) => `${proc.pid}: ${fs.readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`);
  expect(allExited, `still running ${STOP_DEADLINE_MS / 1000} s after ${signal}:\n${left.join('\n')}\n${app.output()}`).toBe(true);

  expect(await until(() => hasExited(npm), deadline), `npm start did not exit after ${signal}`).toBe(true);
}

test.afterAll(async () => {
  const ownGroup = procStat(process.pid)?.pgid;
  for (const app of apps) {
    remember(app);
    const groups = new Set<number>();
    if (app.npm.pid && !hasExited(app.npm)) groups.add(app.npm.pid);
    for (const proc of app.processes.values()) if (isAlive(proc)) groups.add(proc.pgid);
    for (const group of groups) {
      if (group === ownGroup || group <= 1) continue;
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('/api/health says the running app is ready, without caching or cookies', async ({ request }) => {
  // The first answers may be 503 while the app opens its database and blob store.
  await expect.poll(async () => (await request.get('/api/health')).status(), { timeout: 30_000 }).toBe(200);
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(response.headers()['set-cookie']).toBeUndefined();
  expect(await response.json()).toEqual({ status: 'ok', version: PACKAGE_VERSION, configuration: 'ok', database: 'ok', blobStore: 'ok' });
});

test('a server started on a configuration that cannot work (next start itself, no npm start) exits 1 naming each setting and its fix, serving nothing', async () => {
  const port = e2ePort(3183);
  expect(await canListen(port), `port ${port} is taken before the test`).toBe(true);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-lifecycle-'));
  tempDirs.push(dataDir);
  const server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
    detached: true,
    stdio: 'pipe',
    env: { ...process.env, RUNPAD_DATA_DIR: dataDir, AUTH_SECRET, DATABASE_URL: '', S3_BUCKET: '', REDIS_URL: '', RUNPAD_ACCESS: 'invite', RUNPAD_ALLOWED_EMAILS: '', RUNPAD_PASSWORD_SIGN_IN: '0', RUNPAD_OIDC_ISSUER: '', RUNPAD_OIDC_CLIENT_ID: '' },
  });
  let output = '';
  apps.push({ npm: server, port, processes: new Map(), output: () => output });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Whatever is asked while it starts is never answered 200.
  const statuses = new Set<number | null>();
  await expect
    .poll(
      async () => {
        statuses.add(await healthStatus(port));
        return hasExited(server);
      },
      { timeout: READY_DEADLINE_MS },
    )
    .toBe(true);
  expect(server.exitCode, output).toBe(1);
  expect(statuses.has(200)).toBe(false);
  expect(output).toContain('runpad: cannot start: 2 problems in the configuration');
  expect(output).toMatch(/- RUNPAD_ACCESS: invite requires signing in, but there is no way to sign in .*\n {4}Fix: set RUNPAD_PASSWORD_SIGN_IN=1/);
  expect(output).toMatch(/- RUNPAD_ALLOWED_EMAILS: empty, and RUNPAD_ACCESS=invite lets in only who is invited: no one could sign in .*\n {4}Fix: set RUNPAD_ADMIN_EMAILS/);
});

/** Two GETs of /api/health on one connection, `idleMs` apart: the status lines seen, and whether the server closed it first. */
async function twoRequestsOnOneConnection(origin: string, idleMs: number): Promise<{ statusLines: string[]; closedWhileIdle: boolean }> {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  let closed = false;
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  const statusLines = () => received.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
  const request = `GET /api/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`;
  try {
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(request);
    await expect.poll(() => statusLines().length, { timeout: 30_000 }).toBe(1);
    // The idle time is the condition under test, not a duration being measured.
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const closedWhileIdle = closed;
    if (!closedWhileIdle) {
      socket.write(request);
      await expect.poll(() => statusLines().length + (closed ? 10 : 0), { timeout: 30_000 }).not.toBe(1);
    }
    return { statusLines: statusLines(), closedWhileIdle };
  } finally {
    socket.destroy();
  }
}

test('an idle keep-alive connection outlives the idle times of clients and proxies that reuse it (no reset on reuse)', async ({ baseURL }) => {
  // Node's default is 5 s: a client reusing the socket just then had it reset under it (a
  // Playwright request in accounts.spec failed "socket hang up"; load balancers idle for 60 s).
  const { statusLines, closedWhileIdle } = await twoRequestsOnOneConnection(baseURL!, 6_500);
  expect(closedWhileIdle).toBe(false);
  expect(statusLines).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
});

test('npm start stops cleanly on SIGTERM to npm: port free, no process left, within 10 s', async () => {
  test.setTimeout(READY_DEADLINE_MS + 60_000);
  const app = await npmStart(e2ePort(3190), (status) => status === 200);
  await expectStopsCleanly(app, 'SIGTERM', () => process.kill(app.npm.pid!, 'SIGTERM'));
});

test('npm start stops cleanly on SIGINT to its process group (Ctrl-C): port free, no process left, within 10 s', { tag: '@long' }, async () => {
  test.setTimeout(READY_DEADLINE_MS + 60_000);
  const app = await npmStart(e2ePort(3191), (status) => status === 200);
  await expectStopsCleanly(app, 'SIGINT', () => process.kill(-app.npm.pid!, 'SIGINT'));
});

test('npm start kills a server that does not stop: port free, no process left, within 10 s', { tag: '@long' }, async () => {
  test.setTimeout(READY_DEADLINE_MS + 60_000);
  const app = await npmStart(e2ePort(3193), (status) => status === 200);
  const server = serverProcess(app)!;
  // A stopped process keeps its listening socket (the kernel still accepts connections) and
  // ignores SIGTERM until continued; only the SIGKILL after the grace period ends it.
  process.kill(server.pid, 'SIGSTOP');
  expect(await accepts(app.port)).toBe(true);
  await expectStopsCleanly(app, 'SIGTERM', () => process.kill(app.npm.pid!, 'SIGTERM'));
});

test('with the database down: /api/health answers 503 naming the failed checks, without the connection string, and pages say so in words', async ({ page }) => {
  test.setTimeout(READY_DEADLINE_MS + 60_000);
  const password = 'lifecycle-db-password';
  // Nothing listens on port 9 (discard): the connection is refused.
  const app = await test.step('npm start answers 503', () => npmStart(e2ePort(3192), (status) => status === 503, { DATABASE_URL: `postgres://runpad:${password}@127.0.0.1:9/runpad` }));
  // Every step is bounded, so a server that stops answering fails here, with its output, not at the test's time limit.
  const response = await fetch(`http://127.0.0.1:${e2ePort(3192)}/api/health`, { signal: AbortSignal.timeout(patience(30_000)) });
  const text = await response.text();
  expect(response.status).toBe(503);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = JSON.parse(text) as { status: string; database: string; blobStore: string };
  expect(body.status).toBe('unavailable');
  expect(body.database).toMatch(/^(failed|no answer)/);
  // The blob store is opened after the database (it moves old blobs out of it), so it fails too.
  expect(body.blobStore).toMatch(/^(failed|no answer)/);
  expect(text).not.toContain(password);
  expect(text).not.toContain('postgres://');
  // A page whose data cannot be read says so in words, with the reference of the log line that
  // says why; a share page's id (its capability) is in no line of the server's output.
  const shareId = 'LifecycleShareId012345';
  for (const address of ['/', `/s/${shareId}`]) {
    await test.step(`${address} says so in words`, async () => {
      await page.goto(`http://127.0.0.1:${e2ePort(3192)}${address}`, { timeout: patience(60_000) });
      await expect(page.getByRole('heading', { name: 'This page could not be loaded' }), app.output()).toBeVisible();
      const reference = (await page.getByTestId('page-error-reference').textContent())?.split(': ').at(-1);
      expect(reference).toMatch(/^[0-9a-f-]{36}$/);
      await expect.poll(() => app.output(), { message: `the reference ${reference} in the server's output` }).toContain(`"reference":"${reference}"`);
    });
  }
  expect(app.output()).not.toContain(shareId);
  await expectStopsCleanly(app, 'SIGTERM', () => process.kill(app.npm.pid!, 'SIGTERM'));
});
