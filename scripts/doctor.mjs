// `npm run doctor`: checks the configuration the server would start with (the environment, then
// .env.production.local, .env.local, .env.production and .env, as Next reads them) and prints every
// problem, each with the variable, what is wrong and what to set; exits 1 on any. `npm start`
// runs the same checks before the server starts (scripts/start.mjs) and refuses to start on one.
//
// The checks are the app's own (lib/health/doctor.server.ts over lib/config.server.ts), bundled here with esbuild into a
// file of node_modules/.cache/runpad (the packages they use stay imports of node_modules).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Reads the .env files into process.env as `next start` would (set variables win). */
export function loadEnvFiles() {
  const { loadEnvConfig } = createRequire(import.meta.url)('@next/env');
  loadEnvConfig(root, false, { info: () => undefined, error: (...args) => console.error(...args) });
}

/** 'server-only' throws outside React's server condition: these modules run in plain Node here. */
const serverOnlyPlugin = {
  name: 'server-only',
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'server-only' }));
    build.onLoad({ filter: /.*/, namespace: 'server-only' }, () => ({ contents: '', loader: 'js' }));
  },
};

/** lib/health/doctor.server.ts, bundled and imported. */
async function loadChecks() {
  const dir = path.join(root, 'node_modules/.cache/runpad');
  fs.mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, `doctor-${process.pid}-${Date.now()}.mjs`);
  await esbuild.build({
    entryPoints: [path.join(root, 'lib/health/doctor.server.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [serverOnlyPlugin],
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    fs.rmSync(outfile, { force: true });
  }
}

/**
 * The checks' report, { problems, summary, text }: `text` is what to print when there are
 * problems, under `heading`. `database`: whether to ask DATABASE_URL's server too (`npm start`
 * does not: a server whose database is down starts and says so on every page).
 */
export async function checkConfiguration({ database, heading }) {
  const { runDoctor, formatProblems, formatWarnings, countProblems } = await loadChecks();
  const { problems, warnings, summary } = await runDoctor({ database });
  return {
    problems,
    summary,
    text: problems.length > 0 ? formatProblems(problems, `${heading}: ${countProblems(problems)} in the configuration`) : '',
    // Unknown RUNPAD_* names (most often misspelt): printed, and the start goes on.
    warningText: formatWarnings(warnings, heading.replace(/: cannot start$/, '')),
  };
}

async function main() {
  loadEnvFiles();
  const { problems, summary, text, warningText } = await checkConfiguration({ database: true, heading: 'runpad doctor' });
  if (warningText) console.warn(warningText);
  if (problems.length > 0) {
    console.error(text);
    process.exit(1);
  }
  console.log(`runpad doctor: the configuration can start.\n${summary.map((line) => `  ${line}`).join('\n')}`);
  process.exit(0);
}

const invokedDirectly = process.argv[1] && fs.realpathSync(path.resolve(process.argv[1])) === fs.realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) {
  main().catch((error) => {
    console.error('runpad doctor:', error);
    process.exit(1);
  });
}
