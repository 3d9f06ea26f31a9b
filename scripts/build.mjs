// `npm run build`: the engines' assets (`npm run assets`: Pyodide, DuckDB-wasm and webR copied
// under public/, the workers bundled, the Python snapshot built, every engine file precompressed)
// and Next's production build, side by side. Neither reads what the other writes: the page names
// the engines' files by fixed paths, and the server reads them at run time
// (lib/assets/serve-engine-assets.server.ts). The assets wait on the disk and one thread for most of
// their ~35 s, which Next's build fills (docs/DECISIONS.md, "The build makes the assets beside
// Next's build"). The assets' output is printed whole once they end, so it never interleaves with
// Next's. Exits with the first failure's code, after both have ended. The build is dated when both
// have: `npm start` takes a build older than a file under public/ for out of date (scripts/start.mjs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** Runs a command to its end; its exit code (1 when it could not start or a signal ended it). */
function run(command, args, capture) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${command} could not start: ${error.message}\n`));
      resolve({ code: 1, output: Buffer.concat(chunks).toString() });
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

const [assets, next] = await Promise.all([run('npm', ['run', '--silent', 'assets'], true), run(process.execPath, [nextCli, 'build'], false)]);
process.stdout.write(assets.output);
if (assets.code !== 0) console.error(`build: the engines' assets failed (exit ${assets.code}); their output is above.`);
if (assets.code === 0 && next.code === 0) {
  const now = new Date();
  fs.utimesSync('.next/BUILD_ID', now, now);
}
process.exit(assets.code !== 0 ? assets.code : next.code);
