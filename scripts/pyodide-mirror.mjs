#!/usr/bin/env node
// `npm run pyodide:mirror [packages…]`: self-hosts Pyodide packages for air-gapped installs.
// Resolves the packages and their dependencies from pyodide-lock.json, downloads each wheel from
// the package source, verifies its sha256 against the lock file, and only then replaces the
// mirror (public/pyodide-mirror/ by default). Any failure leaves no half-written mirror.
// Then set PYODIDE_PACKAGE_BASE_URL=/pyodide-mirror/ and restart the app.
//
// Options: --source URL (default: the official CDN for the installed Pyodide version)
//          --out DIR    (default: public/pyodide-mirror)
//          --lock FILE  (default: node_modules/pyodide/pyodide-lock.json)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { officialPackageBaseUrl, pyodideDir } from './pyodide-assets.mjs';

const DEFAULT_PACKAGES = ['numpy', 'pandas', 'matplotlib'];

function parseArgs(argv) {
  const options = { source: officialPackageBaseUrl, out: 'public/pyodide-mirror', lock: path.join(pyodideDir, 'pyodide-lock.json'), packages: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--source' || arg === '--out' || arg === '--lock') options[arg.slice(2)] = argv[++i];
    else options.packages.push(arg);
  }
  if (options.packages.length === 0) options.packages = DEFAULT_PACKAGES;
  if (!options.source.endsWith('/')) options.source += '/';
  return options;
}

/** The packages asked for and everything they depend on, from the lock file. */
export function resolvePackages(lock, names) {
  const byName = new Map(Object.entries(lock.packages).map(([key, pkg]) => [key.toLowerCase(), pkg]));
  const wanted = new Map();
  const visit = (name) => {
    const pkg = byName.get(name.toLowerCase());
    if (!pkg) throw new Error(`"${name}" is not in the lock file`);
    if (wanted.has(pkg.name)) return;
    wanted.set(pkg.name, pkg);
    for (const dependency of pkg.depends ?? []) visit(dependency);
  };
  for (const name of names) visit(name);
  return [...wanted.values()];
}

async function download(url, target, expectedSha256) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const hash = createHash('sha256');
  const file = fs.createWriteStream(target);
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      hash.update(chunk);
      bytes += chunk.length;
      if (!file.write(chunk)) await new Promise((resolve) => file.once('drain', resolve));
    }
  } finally {
    await new Promise((resolve) => file.end(resolve));
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared !== bytes) throw new Error(`${url}: download interrupted (${bytes} of ${declared} bytes)`);
  const actual = hash.digest('hex');
  if (actual !== expectedSha256) throw new Error(`${url}: sha256 mismatch (expected ${expectedSha256}, got ${actual})`);
  return bytes;
}

export async function mirror(options) {
  const lock = JSON.parse(fs.readFileSync(options.lock, 'utf8'));
  const packages = resolvePackages(lock, options.packages);
  const out = path.resolve(options.out);
  const staging = `${out}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  try {
    let total = 0;
    for (const pkg of packages) {
      const url = new URL(pkg.file_name, options.source).href;
      total += await download(url, path.join(staging, path.basename(pkg.file_name)), pkg.sha256);
      console.log(`  ✓ ${pkg.name} ${pkg.version}`);
    }
    fs.copyFileSync(options.lock, path.join(staging, 'pyodide-lock.json'));
    const previous = `${out}.previous-${process.pid}`;
    if (fs.existsSync(out)) fs.renameSync(out, previous);
    fs.renameSync(staging, out);
    fs.rmSync(previous, { recursive: true, force: true });
    return { packages: packages.map((p) => p.name), bytes: total, out };
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseArgs(process.argv.slice(2));
  console.log(`Mirroring ${options.packages.join(', ')} and their dependencies from ${options.source}`);
  mirror(options).then(
    (result) => {
      console.log(`Wrote ${result.packages.length} packages (${(result.bytes / 1e6).toFixed(1)} MB) to ${result.out}`);
      console.log('Set PYODIDE_PACKAGE_BASE_URL=/pyodide-mirror/ and restart the app to use it.');
    },
    (error) => {
      console.error(`pyodide:mirror failed: ${error.message}\nNothing was changed.`);
      process.exit(1);
    },
  );
}
