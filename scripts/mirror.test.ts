import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from './mirror.mjs';
import { unusedOrigin } from './mirror/test-support';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs a command line to its end: its exit code and what it printed. */
async function outcome(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: path.resolve('.') });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run mirror', () => {
  it('reads a kind, names and that kind\'s options', () => {
    expect(parseCommandLine(['r', 'ggplot2', '--source', 'http://x/', '--accept-changes', 'dplyr'])).toEqual({ kind: 'r', names: ['ggplot2', 'dplyr'], options: { source: 'http://x/', 'accept-changes': true } });
    expect(parseCommandLine(['duckdb', '--duckdb-version', 'v1.4.3'])).toEqual({ kind: 'duckdb', names: [], options: { 'duckdb-version': 'v1.4.3' } });
    expect(() => parseCommandLine([])).toThrow('say what to mirror: python, duckdb or r');
    expect(() => parseCommandLine(['cran'])).toThrow('unknown kind "cran"');
    expect(() => parseCommandLine(['python', '--accept-changes'])).toThrow('--accept-changes is not an option of "python"');
    expect(() => parseCommandLine(['r', 'x', '--out'])).toThrow('--out needs a value');
  });

  it('says why it failed and that nothing changed, with a failing exit code', async () => {
    const origin = await unusedOrigin();
    const out = path.join(dir, 'r-repo');
    const r = await outcome(process.execPath, ['scripts/mirror.mjs', 'r', 'ggplot2', '--source', `${origin}/`, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`mirror r failed: ${origin}/bin/emscripten/contrib/4.6/PACKAGES.gz cannot be reached (ECONNREFUSED)`);
    expect(r.stderr).toContain('Nothing was changed.');
    expect(fs.existsSync(out)).toBe(false);

    const duckdb = await outcome(process.execPath, ['scripts/mirror.mjs', 'duckdb', '--duckdb-version', 'v1.4.3', '--source', origin, '--out', path.join(dir, 'ext')]);
    expect(duckdb.code).toBe(1);
    expect(duckdb.stderr).toContain(`mirror duckdb failed: ${origin}/v1.4.3/wasm_eh/parquet.duckdb_extension.wasm cannot be reached`);

    const usage = await outcome(process.execPath, ['scripts/mirror.mjs', 'conda']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run mirror -- <kind> [names…] [options]');
  });

  it('keeps npm run pyodide:mirror as the python mirror', async () => {
    const origin = await unusedOrigin();
    const python = await outcome('npm', ['run', '--silent', 'pyodide:mirror', '--', 'numpy', '--source', `${origin}/`, '--out', path.join(dir, 'py')]);
    expect(python.code).toBe(1);
    expect(python.stdout).toContain(`Mirroring numpy and their dependencies from ${origin}/`);
    expect(python.stderr).toContain('mirror python failed:');
    expect(python.stderr).toContain('cannot be reached (ECONNREFUSED)');
  });
});
