/**
 * "Download with data", unpacked and executed under CPython as a person would: the notebook with
 * Jupyter's own client (nbclient and ipykernel, Debian's python3-nbclient and python3-ipykernel),
 * the script with `python3`. This machine has no DuckDB for CPython and may have no R: then the
 * cells that need them fail with the first cell's install message, and every other cell runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { exportBundle, type BundleFile } from './bundle.server';

const PYTHON = '/usr/bin/python3';
const canRun = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import nbclient, ipykernel, nbformat, pandas'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!canRun) console.warn('exported notebooks not executed: /usr/bin/python3 cannot import nbclient, ipykernel, nbformat, pandas (apt-get install python3-nbclient python3-ipykernel)');
const hasDuckdb = canRun && spawnOk(['-c', 'import duckdb']);
const hasR = spawnOk(['-c', 'import shutil, sys; sys.exit(0 if shutil.which("Rscript") else 1)']);

function spawnOk(args: string[]): boolean {
  try {
    execFileSync(PYTHON, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

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
NotebookClient(nb, timeout=60, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": "."}}).execute()
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

  it.runIf(canRun)('runs top to bottom in Jupyter from its folder: DuckDB and R cells say what to install, the others run', async () => {
    const dir = await unpackedBundle();
    writeFileSync(path.join(dir, '..', 'driver.py'), DRIVER);
    const out = execFileSync(PYTHON, [path.join(dir, '..', 'driver.py'), 'Sales-by-region.ipynb'], {
      cwd: dir,
      encoding: 'utf8',
      // The kernel's debugger would warn about frozen modules on stderr.
      env: { ...process.env, PYTHONIOENCODING: 'utf-8', PYDEVD_DISABLE_FILE_VALIDATION: '1' },
    });
    const cells = JSON.parse(out.trim().split('\n').pop() as string) as Executed;

    expect(cells.py_pandas).toEqual({ text: 'pandas total 75\n', errors: [] });
    expect(cells.py_after).toEqual({ text: 'csv rows 3\n', errors: [] });
    expect(cells['runpad-sql-setup'].errors).toEqual([]);
    if (hasDuckdb) {
      expect(cells.py_sql.errors).toEqual([]);
      expect(cells.py_sql.text).toContain('north');
      expect(cells.sql_cell.text).toContain('3');
    } else {
      expect(cells['runpad-requirements'].text).toContain('Not installed: duckdb (needed by the SQL cells and sql()). Install it with: pip install duckdb');
      const install = "ModuleNotFoundError: DuckDB is not installed, and this cell needs it (Runpad's SQL engine): pip install duckdb (or pip install -r requirements.txt), then run the notebook again.";
      expect(cells.py_sql.errors).toEqual([install]);
      expect(cells.sql_cell.errors).toEqual([install]);
    }
    if (hasR) {
      expect(cells.r_cell).toEqual({ text: 'R total 75 \n', errors: [] });
    } else {
      expect(cells['runpad-requirements'].text).toContain('R is not installed (no Rscript on the PATH), and the R cells need it');
      expect(cells.r_cell.errors).toEqual(['RuntimeError: R is not installed (no Rscript on the PATH), and this cell needs it: install R from https://cran.r-project.org, then run the notebook again.']);
    }
  });

  it.runIf(canRun)('runs as a script with python3 from its folder up to the first cell whose package is missing', async () => {
    const dir = await unpackedBundle();
    let printed = '';
    let failed = '';
    try {
      printed = execFileSync(PYTHON, ['Sales-by-region.py'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const failure = error as { stdout: string; stderr: string };
      printed = failure.stdout;
      failed = failure.stderr;
    }
    expect(printed).toContain('pandas total 75\n');
    if (!hasDuckdb) {
      expect(printed).toContain('Not installed: duckdb');
      expect(failed).toContain('DuckDB is not installed, and this cell needs it');
    }
    expect(existsSync(path.join(dir, 'data', 'sales.csv'))).toBe(true);
  });
});
