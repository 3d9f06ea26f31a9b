// Servers for the benchmark: the bare Pyodide baseline, the fake model, and the app itself.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pyodideVersion } from '../scripts/pyodide-assets.mjs';

const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.zip': 'application/zip', '.json': 'application/json', '.html': 'text/html' };

/** Serves bench/bare/ and public/pyodide/ with the same isolation headers as the app. */
export function startBareServer(port) {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const file = url.pathname.startsWith('/pyodide/') ? path.join('public', url.pathname) : path.join('bench', url.pathname === '/' ? 'bare/index.html' : url.pathname);
    response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    if (url.pathname.startsWith('/pyodide/')) response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (!fs.existsSync(file)) return response.writeHead(404).end();
    response.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    if (file.endsWith('worker.mjs')) return response.end(fs.readFileSync(file, 'utf8').replaceAll('VERSION', pyodideVersion));
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/**
 * Starts `next start` (of the build in `cwd`) in its own process group; kill() ends the group, because killing npx alone
 * leaves next-server running (and a later run would then measure the stale build on that port).
 */
export async function startApp(port, env, cwd = process.cwd()) {
  const stale = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (stale) throw new Error(`port ${port} is already in use: stop that server first`);
  // The bench is one guest sending hundreds of streams: the per-guest limits would refuse it.
  const limits = { RUNPAD_MODEL_REQUESTS_PER_MINUTE: '1000000', RUNPAD_MODEL_REQUESTS_PER_DAY: '1000000', RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: '1000000', RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY: '1000000' };
  const child = spawn('npx', ['next', 'start', '-p', String(port)], { cwd, env: { ...process.env, ...limits, ...env }, stdio: ['ignore', 'ignore', 'ignore'], detached: true });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const app = {
    kill: () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
  for (let i = 0; i < 120 && !exited; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return app;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  app.kill();
  throw new Error(`the app did not start on port ${port} (is another server using it?)`);
}

/** The next-server process's resident memory in MB (Linux). */
export function rssMb(port) {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (cmd.startsWith('next-server') && environ.includes(`PORT=${port}`)) {
        const rss = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
        return rss ? Math.round(Number(rss[1]) / 1024) : null;
      }
    } catch {
      // process went away
    }
  }
  return null;
}
