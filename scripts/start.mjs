// `npm start`: builds first when there is no current build (or the sources changed since),
// then serves the app on PORT (default 3000).
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['app', 'components', 'lib', 'workers', 'public', 'scripts'];
const SOURCE_FILES = ['package-lock.json', 'next.config.ts', 'proxy.ts', 'postcss.config.mjs', 'tsconfig.json'];
const buildId = path.resolve('.next/BUILD_ID');

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(entry)) {
    if (child === 'node_modules' || child === 'pyodide' || child === 'workers') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function needsBuild() {
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((entry) => newestMtime(entry) > built);
}

if (needsBuild()) {
  console.log('runpad: no current build; building first (npm run build)…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  const assets = spawnSync('npm', ['run', 'assets'], { stdio: 'inherit' });
  if (assets.status !== 0) process.exit(assets.status ?? 1);
}

const port = process.env.PORT ?? '3000';
const child = spawn('npx', ['next', 'start', '-p', port], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
