// `npm run test:python`: the Python package's tests under Debian's CPython, in a venv made for the
// run with exactly pytest, matplotlib, pandas and numpy (Debian's packages, installed by .ci/run)
// and what they depend on, so that what else the machine has installed changes nothing
// (lib/testing/python-env.ts). PYTHON=/path/to/python runs them under that interpreter instead,
// as it is. Arguments go to pytest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pythonEnvMissing, pythonEnvWith } from '../lib/testing/python-env';

const PACKAGES = ['python3-pytest', 'python3-matplotlib', 'python3-pandas', 'python3-numpy'];
const args = ['-m', 'pytest', 'tests/python', '-q', ...process.argv.slice(2)];

function run(): number {
  const chosen = process.env.PYTHON;
  if (chosen) return spawnSync(chosen, args, { stdio: 'inherit' }).status ?? 1;
  const missing = pythonEnvMissing(PACKAGES);
  if (missing) {
    console.error(`test:python: ${missing}`);
    return 1;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-pytest-'));
  try {
    const python = pythonEnvWith(PACKAGES, path.join(dir, 'venv'));
    return spawnSync(python.python, args, { stdio: 'inherit', env: python.env }).status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

process.exit(run());
