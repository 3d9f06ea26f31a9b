/**
 * Servers a test owns and may break: a throwaway Postgres cluster (Debian's initdb/pg_ctl, its own
 * port and data directory) and a redis-server on its own port. Never the machine's 5432 or 6379.
 * As root (CI containers), Postgres runs as the `postgres` user, since initdb refuses root.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { skipOutsideCi } from './required';

const run = promisify(execFile);

function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export type OwnPostgres = { url: string; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> };

/** null when this machine has Postgres server binaries, else why not (the caller skips, saying so; under CI=true: throws). */
export function ownPostgresUnavailable(): string | null {
  return skipOutsideCi(postgresBin() ? null : 'no Postgres server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
}

export async function startOwnPostgres(port: number): Promise<OwnPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('no Postgres binaries');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-own-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]) : run(path.join(bin, command), args));
  await as('initdb', ['-D', data, '-U', 'runpad', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://runpad@127.0.0.1:${port}/postgres`,
    start,
    stop,
    close: async () => {
      await stop().catch(() => undefined); // already stopped
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A port no one listens on now, chosen by the system: for a server of a test's own that cannot be
 * given port 0 (redis-server), so that the same test run twice at once (two runs of the suite on
 * one machine) never meets the other's server.
 */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as import('node:net').AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type OwnRedis = { url: string; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> };

export function ownRedisUnavailable(): string | null {
  return skipOutsideCi(fs.existsSync('/usr/bin/redis-server') ? null : 'no /usr/bin/redis-server (apt-get install redis-server)');
}

export async function startOwnRedis(port: number): Promise<OwnRedis> {
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
    });
  };
  const stop = async () => {
    const current = child;
    // Already stopped: a process killed by a signal has a signalCode and no exitCode.
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, close: stop };
}

export type S3Fault = 'none' | 'error-500' | 'stall';
export type FaultyProxy = { endpoint: string; setFault(fault: S3Fault): void; close(): Promise<void> };

/**
 * An HTTP proxy in front of an S3-compatible server that answers every request with a 500
 * (InternalError, as S3 words it) or stalls it (headers never come) while its fault is set.
 */
export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const http = await import('node:http');
  let fault: S3Fault = 'none';
  const stalled = new Set<import('node:http').ServerResponse>();
  const server = http.createServer((request, response) => {
    if (fault === 'error-500') {
      request.resume();
      response.writeHead(500, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>');
      return;
    }
    if (fault === 'stall') {
      request.resume();
      stalled.add(response);
      response.on('close', () => stalled.delete(response));
      return;
    }
    const url = new URL(request.url ?? '/', target);
    const upstream = http.request(url, { method: request.method, headers: { ...request.headers, host: url.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    setFault: (next) => {
      fault = next;
    },
    close: async () => {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
