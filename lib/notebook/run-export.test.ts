/**
 * "Download with data", unpacked and executed under CPython as a person would: the notebook with
 * Jupyter's own client (nbclient and ipykernel, Debian's python3-nbclient and python3-ipykernel),
 * the script with `python`. Both run in a venv this file makes with exactly nbclient, ipykernel,
 * nbformat and pandas (and what Debian says they depend on), a kernel spec of its own and a PATH
 * holding only the venv: whatever else the machine has (a `duckdb` module, R, another python3 or
 * kernel spec) changes nothing. So DuckDB and R are missing, always: the cells that need them fail
 * with the first cell's install message, and every other cell runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { pythonEnvMissing, pythonEnvWith, type PythonEnv } from '@/lib/testing/python-env';
import { skipOutsideCi } from '@/lib/testing/required';
import { exportBundle, type BundleFile } from './bundle.server';

/** What the notebook needs to run at all (Jupyter's client and kernel) and what its cells use. */
const PACKAGES = ['python3-nbclient', 'python3-ipykernel', 'python3-nbformat', 'python3-pandas'];
const missing = skipOutsideCi(pythonEnvMissing(PACKAGES));

const SALES = 'region,amount\nnorth,10\nsouth,45\nnorth,20\n';

const run = (toolCallId: string, tool: string, code: string) => ({
  type: `tool-${tool}`,
  toolCallId,
  state: 'output-available',
  input: { code },
  output: { status: 'ok', durationMs: 2, outputs: [{ output_type: 'stream', name: 'stdout', text: 'as in Runpad\n' }] },
});

const messages = [
  {
    id: 'u1',
    role: 'user',
    parts: [{ type: 'text', text: 'Total sales by region, in Python, SQL and R.' }],
    metadata: { files: [{ name: 'sales.csv', size: SALES.length, mediaType: 'text/csv', sha256: 'a'.repeat(64) }] },
  },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      run('py_pandas', 'python', 'import pandas as pd\ndf = pd.read_csv("/data/sales.csv")\nprint("pandas total", df.amount.sum())'),
      run('py_sql', 'python', 'by_region = sql("SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY region")\nprint(by_region)'),
      run('sql_cell', 'sql', "SELECT COUNT(*) AS n FROM read_csv('/data/sales.csv')"),
      run('r_cell', 'r', 'd <- read.csv("/data/sales.csv")\ncat("R total", sum(d$amount), "\\n")'),
      run('py_after', 'python', 'import csv\nwith open("/data/sales.csv") as f:\n    rows = list(csv.DictReader(f))\nprint("csv rows", len(rows))'),
    ],
  },
] as unknown as StoredMessage[];

const tmp = mkdtempSync(path.join(tmpdir(), 'runpad-run-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let python: PythonEnv;
beforeAll(() => {
  if (!missing) python = pythonEnvWith(PACKAGES, path.join(tmp, 'venv'));
});

async function unpackedBundle(): Promise<string> {
  const files: BundleFile[] = [
    {
      name: 'sales.csv',
      read: async () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(SALES));
            controller.close();
          },
        }),
    },
    { name: 'gone.csv', read: async () => null },
  ];
  const bytes = new Uint8Array(await new Response(exportBundle({ title: 'Sales by region', messages, resolveImage: async () => null }, files)).arrayBuffer());
  const dir = mkdtempSync(path.join(tmp, 'unpacked-'));
  for (const [name, content] of Object.entries(unzipSync(bytes))) {
    const target = path.join(dir, name);
    if (name.endsWith('/')) mkdirSync(target, { recursive: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }
  return path.join(dir, 'Sales-by-region');
}

/** Executes the notebook with nbclient (errors allowed, so every cell runs); per cell id its text and errors. */
const DRIVER = String.raw`import json, sys
import nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=None, kernel_name=sys.argv[2], allow_errors=True, resources={"metadata": {"path": "."}}).execute()
cells = {}
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    text, errors = [], []
    for output in cell.outputs:
        if output.output_type == "stream":
            text.append(output.text)
        elif output.output_type == "error":
            errors.append(output.ename + ": " + output.evalue)
        elif "data" in output:
            text.append(output.data.get("text/plain", "") + "\n")
    cells[cell.id] = {"text": "".join(text), "errors": errors}
print(json.dumps(cells))
`;

type Executed = Record<string, { text: string; errors: string[] }>;

describe('a conversation downloaded with its data', () => {
  it('holds the notebook, the script, data/, requirements.txt and a README naming what is left out', async () => {
    const dir = await unpackedBundle();
    expect(readdirSync(dir).sort()).toEqual(['README.md', 'Sales-by-region.ipynb', 'Sales-by-region.py', 'data', 'requirements.txt']);
    expect(readdirSync(path.join(dir, 'data'))).toEqual(['sales.csv']);
    expect(execFileSync('cat', [path.join(dir, 'requirements.txt')], { encoding: 'utf8' })).toBe('duckdb\npandas\n');
    const readme = execFileSync('cat', [path.join(dir, 'README.md')], { encoding: 'utf8' });
    expect(readme).toContain('pip install -r requirements.txt');
    expect(readme).toContain('python Sales-by-region.py');
    expect(readme).toContain('- gone.csv');
  });

  it.skipIf(missing)('the venv holds exactly the packages named and their dependencies: no DuckDB, no R, no other interpreter', () => {
    expect(python.packages).toEqual(expect.arrayContaining(PACKAGES));
    expect(python.packages.some((pkg) => /duckdb/.test(pkg))).toBe(false);
    const seen = execFileSync(python.python, ['-c', 'import importlib.util, os, shutil, sys; print(importlib.util.find_spec("duckdb") is None, shutil.which("Rscript"), os.path.dirname(shutil.which("python3")) == os.path.dirname(sys.executable))'], { env: python.env, encoding: 'utf8' });
    expect(seen.trim()).toBe('True None True');
  });

  it.skipIf(missing)('runs top to bottom in Jupyter from its folder: DuckDB and R cells say what to install, the others run', async () => {
    const dir = await unpackedBundle();
    writeFileSync(path.join(dir, '..', 'driver.py'), DRIVER);
    const out = execFileSync(python.python, [path.join(dir, '..', 'driver.py'), 'Sales-by-region.ipynb', python.kernelName], { cwd: dir, encoding: 'utf8', env: python.env });
    const cells = JSON.parse(out.trim().split('\n').pop() as string) as Executed;

    expect(cells.py_pandas).toEqual({ text: 'pandas total 75\n', errors: [] });
    expect(cells.py_after).toEqual({ text: 'csv rows 3\n', errors: [] });
    expect(cells['runpad-sql-setup'].errors).toEqual([]);
    expect(cells['runpad-requirements'].text).toContain('Not installed: duckdb (needed by the SQL cells and sql()). Install it with: pip install duckdb');
    const install = "ModuleNotFoundError: DuckDB is not installed, and this cell needs it (Runpad's SQL engine): pip install duckdb (or pip install -r requirements.txt), then run the notebook again.";
    expect(cells.py_sql.errors).toEqual([install]);
    expect(cells.sql_cell.errors).toEqual([install]);
    expect(cells['runpad-requirements'].text).toContain('R is not installed (no Rscript on the PATH), and the R cells need it');
    expect(cells.r_cell.errors).toEqual(['RuntimeError: R is not installed (no Rscript on the PATH), and this cell needs it: install R from https://cran.r-project.org, then run the notebook again.']);
  });

  it.skipIf(missing)('runs as a script with python from its folder up to the first cell whose package is missing', async () => {
    const dir = await unpackedBundle();
    let printed = '';
    let failed = '';
    try {
      printed = execFileSync(python.python, ['Sales-by-region.py'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: python.env });
    } catch (error) {
      const failure = error as { stdout: string; stderr: string };
      printed = failure.stdout;
      failed = failure.stderr;
    }
    expect(printed).toContain('pandas total 75\n');
    expect(printed).toContain('Not installed: duckdb');
    expect(failed).toContain('DuckDB is not installed, and this cell needs it');
    expect(existsSync(path.join(dir, 'data', 'sales.csv'))).toBe(true);
  });
});
