#!/usr/bin/env node
// `npm run mirror -- <python|duckdb|r> [names…] [options]`: self-hosts what the browser would
// otherwise fetch from public servers, for air-gapped installs (README, "Packages";
// docs/ARCHITECTURE.md, "What these machines cannot reach"). Each kind resolves, downloads and
// verifies everything first and only then replaces its mirror; a failure changes nothing.
// `npm run pyodide:mirror` is `npm run mirror -- python`.
import { DEFAULT_OUT as DUCKDB_OUT, DEFAULT_EXTENSIONS, mirrorDuckdbExtensions, OFFICIAL_EXTENSION_REPOSITORY } from './mirror/duckdb.mjs';
import { DEFAULT_OUT as PYTHON_OUT, DEFAULT_PACKAGES, DEFAULT_SOURCE as PYTHON_SOURCE, mirror as mirrorPython } from './mirror/python.mjs';
import { DEFAULT_OUT as R_OUT, mirrorRPackages, WEBR_REPOSITORY } from './mirror/r.mjs';

const USAGE = `Usage: npm run mirror -- <kind> [names…] [options]

  python [packages…]    Pyodide wheels and their dependencies (default: ${DEFAULT_PACKAGES.join(' ')})
                        into ${PYTHON_OUT}/; set PYODIDE_PACKAGE_BASE_URL to where it is served.
  duckdb [extensions…]  DuckDB-wasm extensions (default: ${DEFAULT_EXTENSIONS.join(' ')}) for the installed
                        engine into ${DUCKDB_OUT}/; set RUNPAD_DUCKDB_EXTENSION_URL.
  r <packages…>         webR packages and their dependencies into ${R_OUT}/;
                        set RUNPAD_R_PACKAGE_REPO_URL.

Options:
  --source URL          where to fetch from (python: ${PYTHON_SOURCE};
                        duckdb: ${OFFICIAL_EXTENSION_REPOSITORY}; r: ${WEBR_REPOSITORY})
  --out DIR             the mirror's directory (replaced whole when everything is verified)
  --accept-changes      duckdb, r: accept files that changed at the source since the last run
  --lock FILE           python: the lock file (default: the installed Pyodide's)
  --duckdb-version V    duckdb: the engine version to mirror for (default: the installed engine's, e.g. v1.4.3)
  --platform P          duckdb: the engine platform (default: the installed engine's, wasm_eh)
  --r-version V         r: the R version to mirror for (default: the installed webR's)
  --linking-to          r: also mirror LinkingTo dependencies (webR's installer never fetches them)`;

const VALUE_OPTIONS = { python: ['source', 'out', 'lock'], duckdb: ['source', 'out', 'duckdb-version', 'platform'], r: ['source', 'out', 'r-version'] };
const FLAG_OPTIONS = { python: [], duckdb: ['accept-changes'], r: ['accept-changes', 'linking-to'] };

/** The kind, the names and the options of a command line; throws with what is wrong. */
export function parseCommandLine(argv) {
  const [kind, ...rest] = argv;
  if (!kind || !(kind in VALUE_OPTIONS)) throw new Error(kind ? `unknown kind "${kind}": python, duckdb or r` : 'say what to mirror: python, duckdb or r');
  const options = {};
  const names = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    if (!arg.startsWith('--')) {
      names.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (FLAG_OPTIONS[kind].includes(name)) options[name] = true;
    else if (VALUE_OPTIONS[kind].includes(name)) {
      const value = rest[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value`);
      options[name] = value;
    } else throw new Error(`${arg} is not an option of "${kind}"`);
  }
  return { kind, names, options };
}

const log = (line) => console.log(line);
const megabytes = (files) => (files.reduce((sum, file) => sum + file.bytes, 0) / 1e6).toFixed(1);

async function run({ kind, names, options }) {
  if (kind === 'python') {
    console.log(`Mirroring ${(names.length > 0 ? names : DEFAULT_PACKAGES).join(', ')} and their dependencies from ${options.source ?? PYTHON_SOURCE}`);
    const result = await mirrorPython({ source: options.source, out: options.out, lock: options.lock, packages: names, log });
    console.log(`Wrote ${result.packages.length} packages (${(result.bytes / 1e6).toFixed(1)} MB) to ${result.out}`);
    console.log('Set PYODIDE_PACKAGE_BASE_URL to the URL it is served at (for the default directory: <the app\'s origin>/pyodide-mirror/) and restart the app.');
    return;
  }
  if (kind === 'duckdb') {
    const engine = options['duckdb-version'] || options.platform ? { version: options['duckdb-version'], platform: options.platform ?? 'wasm_eh' } : undefined;
    if (engine && !engine.version) throw new Error('--platform needs --duckdb-version too');
    if (!engine) console.log('Asking the installed DuckDB-wasm engine for its version…');
    const result = await mirrorDuckdbExtensions({ source: options.source, out: options.out, extensions: names.length > 0 ? names : undefined, engine, acceptChanges: options['accept-changes'], log });
    for (const changed of result.changed) console.log(`  ! ${changed} changed at the source since the last run (accepted)`);
    console.log(`Wrote ${result.files.length} extensions for DuckDB ${result.version} (${result.platform}, ${megabytes(result.files)} MB) to ${result.out}`);
    console.log("Set RUNPAD_DUCKDB_EXTENSION_URL to the URL it is served at (for the default directory: <the app's origin>/duckdb-extensions) and restart the app.");
    return;
  }
  const result = await mirrorRPackages({ source: options.source, out: options.out, packages: names, rVersion: options['r-version'], linkingTo: options['linking-to'], acceptChanges: options['accept-changes'], log });
  for (const changed of result.changed) console.log(`  ! ${changed} changed at the source since the last run (accepted)`);
  console.log(`Wrote ${result.packages.length} R packages for R ${result.rVersion} (${megabytes(result.files)} MB) to ${result.out}`);
  console.log("Set RUNPAD_R_PACKAGE_REPO_URL to the URL it is served at (for the default directory: <the app's origin>/r-repo/) and restart the app.");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let command;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    console.error(`mirror: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  run(command).catch((error) => {
    console.error(`mirror ${command.kind} failed: ${error.message}\nNothing was changed.`);
    process.exit(1);
  });
}
