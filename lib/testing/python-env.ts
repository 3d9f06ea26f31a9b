/**
 * CPython environments the tests make for themselves, so that what a machine happens to have
 * installed (a `duckdb` module, a kernel spec in ~/.local, a pyenv `python3` first on the PATH, R)
 * changes nothing in what a test sees.
 *
 * - `isolatedPython()`: Debian's interpreter with the standard library only (`-I -S`: no site
 *   directories, no user site, no PYTHON* variables).
 * - `pythonEnvWith(packages, dir)`: a venv without system site packages that holds exactly the
 *   named Debian packages and what they depend on (their `Depends` closure, as dpkg records it),
 *   each linked from /usr/lib/python3/dist-packages. Linked, not copied: the modules' compiled
 *   bytecode Debian made at install is reused. A top-level directory that a package outside the
 *   closure also installs into (a namespace such as `mpl_toolkits`) is made as a real directory
 *   holding only the closure's entries. A Jupyter kernel spec of its own points at the venv's
 *   interpreter, and `env` is the exact environment to run it with: a PATH holding only the venv's
 *   bin (so no Rscript, no other python3), HOME and Jupyter's directories inside `dir`.
 *
 * Under CI=true a missing interpreter or package is a failure naming what to install
 * (`requireUnderCi`); elsewhere the caller skips with that reason.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEBIAN_PYTHON = '/usr/bin/python3';

/** An environment made whole here, not inherited (NODE_ENV is typed as always present). */
const exactEnv = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: 'test', ...vars });
const DIST_PACKAGES = '/usr/lib/python3/dist-packages';

/** The arguments that run Debian's python3 on the standard library alone. */
export const ISOLATED_PYTHON_ARGS = ['-I', '-S'] as const;

/** null when Debian's python3 runs, else why not. */
export function isolatedPythonMissing(): string | null {
  try {
    execFileSync(DEBIAN_PYTHON, [...ISOLATED_PYTHON_ARGS, '-c', 'pass'], { stdio: 'ignore' });
    return null;
  } catch (error) {
    return `${DEBIAN_PYTHON} does not run (${(error as Error).message}): apt-get install python3`;
  }
}

/**
 * Runs Debian's python3 with the standard library only (UTF-8 mode; `-I` ignores PYTHON*
 * variables, so the environment is the fixed one given here): `args` as after `python3`.
 */
export function stdlibPython(args: string[], options: { cwd?: string; input?: string } = {}): string {
  return execFileSync(DEBIAN_PYTHON, [...ISOLATED_PYTHON_ARGS, '-X', 'utf8', ...args], { encoding: 'utf8', cwd: options.cwd, input: options.input, env: exactEnv({ PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' }) });
}

function dpkgQuery(args: string[]): string {
  return execFileSync('dpkg-query', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

type DebianPackage = { installed: boolean; depends: string };
let packagesOfThisMachine: Map<string, DebianPackage> | null = null;

/** Every package dpkg knows, whether installed and what it depends on: one query, read once per process. */
function debianPackages(): Map<string, DebianPackage> {
  if (packagesOfThisMachine) return packagesOfThisMachine;
  const known = new Map<string, DebianPackage>();
  for (const line of dpkgQuery(['-W', '-f=${Package}\t${db:Status-Abbrev}\t${Depends},${Pre-Depends}\n']).split('\n')) {
    const [name, status, depends] = line.split('\t');
    if (!name || depends === undefined) continue;
    // One line per architecture of a multi-arch package: the installed one's, if any is.
    if (known.get(name)?.installed) continue;
    known.set(name, { installed: status.startsWith('ii'), depends });
  }
  packagesOfThisMachine = known;
  return known;
}

function installed(pkg: string): boolean {
  return debianPackages().get(pkg)?.installed === true;
}

/** The python3-* packages `roots` depend on, roots included (first installed choice of each alternative). */
export function debianClosure(roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pkg = queue.shift() as string;
    if (seen.has(pkg)) continue;
    seen.add(pkg);
    const depends = debianPackages().get(pkg)?.depends ?? '';
    for (const clause of depends.split(',')) {
      const choices = clause
        .split('|')
        .map((choice) => choice.trim().split(/[\s:(]/)[0])
        .filter((name) => name.startsWith('python3-'));
      const chosen = choices.find(installed);
      if (chosen) queue.push(chosen);
    }
  }
  return [...seen].sort();
}

/** Every path under dist-packages that `packages` install, as dpkg lists them. */
function filesOf(packages: string[]): Set<string> {
  const listed = dpkgQuery(['-L', ...packages]).split('\n');
  return new Set(listed.filter((file) => file.startsWith(`${DIST_PACKAGES}/`)));
}

/** Which packages install `paths` (dpkg -S), per path. */
function ownersOf(paths: string[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  if (paths.length === 0) return owners;
  let out = '';
  try {
    out = execFileSync('dpkg-query', ['-S', ...paths], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    out = (error as { stdout?: string }).stdout ?? '';
  }
  for (const line of out.split('\n')) {
    const at = line.lastIndexOf(': ');
    if (at < 0) continue;
    owners.set(line.slice(at + 2), line.slice(0, at).split(', ').map((name) => name.split(':')[0]));
  }
  return owners;
}

/** Links the closure's entries of `source` into `target`: whole when only the closure installs there, else one level down. */
function linkEntries(source: string, target: string, files: Set<string>, closure: Set<string>) {
  const prefix = `${source}/`;
  const entries = [...new Set([...files].filter((file) => file.startsWith(prefix)).map((file) => file.slice(prefix.length).split('/')[0]))].sort();
  const owners = ownersOf(entries.map((entry) => path.join(source, entry)));
  for (const entry of entries) {
    const from = path.join(source, entry);
    const shared = (owners.get(from) ?? []).some((owner) => !closure.has(owner));
    if (shared && fs.statSync(from).isDirectory()) {
      fs.mkdirSync(path.join(target, entry));
      linkEntries(from, path.join(target, entry), files, closure);
    } else fs.symlinkSync(from, path.join(target, entry));
  }
}

export type PythonEnv = {
  /** The venv's interpreter. */
  python: string;
  /** The kernel spec's name, for nbclient (`kernel_name`). */
  kernelName: string;
  /** The whole environment to run `python` (and its kernels) with. */
  env: NodeJS.ProcessEnv;
  /** The Debian packages linked in (the closure). */
  packages: string[];
};

export const KERNEL_NAME = 'runpad-test-venv';

/** Why `pythonEnvWith(packages)` cannot be made on this machine, or null. */
export function pythonEnvMissing(packages: string[]): string | null {
  const missing = [DEBIAN_PYTHON, '/usr/bin/dpkg-query'].filter((file) => !fs.existsSync(file));
  if (missing.length > 0) return `this machine has no ${missing.join(' or ')} (a Debian python3 is needed)`;
  const absent = packages.filter((pkg) => !installed(pkg));
  return absent.length > 0 ? `the Debian packages ${absent.join(', ')} are not installed (apt-get install ${absent.join(' ')})` : null;
}

/** Makes the venv in `dir` (which must not exist yet) with exactly `packages` and their dependencies. */
export function pythonEnvWith(packages: string[], dir: string): PythonEnv {
  execFileSync(DEBIAN_PYTHON, ['-I', '-m', 'venv', '--without-pip', dir], { stdio: 'ignore', env: exactEnv({ PATH: '/usr/bin:/bin' }) });
  const version = execFileSync(DEBIAN_PYTHON, ['-I', '-c', 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")'], { encoding: 'utf8' }).trim();
  const sitePackages = path.join(dir, 'lib', `python${version}`, 'site-packages');
  const closure = debianClosure(packages);
  linkEntries(DIST_PACKAGES, sitePackages, filesOf(closure), new Set(closure));
  const python = path.join(dir, 'bin', 'python');
  const jupyter = path.join(dir, 'jupyter');
  const kernel = path.join(jupyter, 'kernels', KERNEL_NAME);
  fs.mkdirSync(kernel, { recursive: true });
  fs.writeFileSync(path.join(kernel, 'kernel.json'), JSON.stringify({ argv: [python, '-m', 'ipykernel_launcher', '-f', '{connection_file}'], display_name: 'Runpad test venv', language: 'python' }));
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  return {
    python,
    kernelName: KERNEL_NAME,
    packages: closure,
    env: exactEnv({
      PATH: path.join(dir, 'bin'),
      HOME: home,
      LANG: 'C.UTF-8',
      PYTHONIOENCODING: 'utf-8',
      PYTHONNOUSERSITE: '1',
      JUPYTER_PATH: jupyter,
      JUPYTER_DATA_DIR: path.join(home, 'jupyter-data'),
      JUPYTER_CONFIG_DIR: path.join(home, 'jupyter-config'),
      JUPYTER_RUNTIME_DIR: path.join(home, 'jupyter-runtime'),
      IPYTHONDIR: path.join(home, 'ipython'),
      MPLCONFIGDIR: path.join(home, 'matplotlib'),
      // The kernel's debugger would warn about frozen modules on stderr.
      PYDEVD_DISABLE_FILE_VALIDATION: '1',
    }),
  };
}

const madeForProcess = new Map<string, PythonEnv>();

/**
 * A venv with exactly `packages` (see `pythonEnvWith`), made once per process and removed when it
 * exits; throws naming what to install when the machine lacks one (a test that needs it fails).
 */
export function sharedPythonEnv(packages: string[]): PythonEnv {
  const key = [...packages].sort().join(' ');
  const made = madeForProcess.get(key);
  if (made) return made;
  const missing = pythonEnvMissing(packages);
  if (missing) throw new Error(missing);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-venv-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const env = pythonEnvWith(packages, path.join(dir, 'venv'));
  madeForProcess.set(key, env);
  return env;
}

/** Runs `args` under a shared venv of exactly `packages` (UTF-8 text out). */
export function pythonWith(packages: string[], args: string[]): string {
  const env = sharedPythonEnv(packages);
  return execFileSync(env.python, args, { encoding: 'utf8', env: env.env });
}
