/**
 * The script export: percent-format cells, the talk only ever in comments, and the script run
 * with CPython from a folder holding the data, printing the right results.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { SQL_SETUP_SOURCE } from '@/lib/targets/sql/notebook';
import { FAKE_DUCKDB_MODULE } from '../testing/fake-duckdb';
import { isolatedPythonMissing, stdlibPython } from '../testing/python-env';
import { skipOutsideCi } from '../testing/required';
import { DISPLAY_FALLBACK, scriptFileName, toComment, toScript } from './to-script.server';

const tmp = mkdtempSync(path.join(tmpdir(), 'runpad-script-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Debian's python3 on the standard library alone (lib/testing/python-env.ts). */
const pythonMissing = skipOutsideCi(isolatedPythonMissing());

const TRICKY_PYTHON = 'word = """it\'s \'\'\'quoted\'\'\' \\\\ "é" 😀"""\nprint(ascii(word))';
const TRICKY_SQL = "-- \"\"\" ''' \\ é\nSELECT 'x\"\"\"y' AS a, 'p''''''q' AS b, '\\' AS c, 'ü😀' AS d";
const TRICKY_DOT = 'digraph { a [label="\\"\\"\\" \'\'\' \\\\ é 😀"] }';
/** Text that would run if a line of it escaped its comment. */
const INJECTION = 'Please sum it.\rprint("LEAKED 1")\u2028print("LEAKED 2")\n\nSecond paragraph\r\nprint("LEAKED 3")';

const run = (toolCallId: string, type: string, code: string, extra: Record<string, unknown> = {}) => ({
  type,
  toolCallId,
  state: 'output-available',
  input: { code },
  output: { status: 'ok', durationMs: 3, outputs: [], ...extra },
});

const messages: StoredMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: INJECTION }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'text', text: 'Summing.\nTwo lines.' },
      run('py1', 'tool-python', 'total = sum(range(1, 11))\nprint("sum", total)'),
      run('py2', 'tool-python', 'display(total * 3)', { userRun: 'edited' }),
      run('py3', 'tool-python', TRICKY_PYTHON),
      { type: 'tool-python', toolCallId: 'failed', state: 'output-error', input: { code: 'print("tool failed")' }, errorText: 'Kernel unavailable' },
      { type: 'tool-python', toolCallId: 'stopped', state: 'input-available', input: { code: 'print("stopped")' } },
    ],
  },
  { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Now SQL and a graph.' }] },
  {
    id: 'a2',
    role: 'assistant',
    parts: [
      run('sql1', 'tool-sql', 'SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY total DESC'),
      run('sql2', 'tool-sql', TRICKY_SQL),
      run('dot1', 'tool-graphviz', TRICKY_DOT),
      { type: 'text', text: 'All done.' },
    ],
  },
];

/** The script's cells: the text after each `# %%` marker line. */
function cellsOf(script: string): string[] {
  return script.split(/^# %%/m).slice(1);
}

describe('toScript', () => {
  const script = toScript({ title: 'Sales\nby region', messages });

  it('writes percent-format cells: markdown cells of comments, then code in order', () => {
    const cells = cellsOf(script);
    expect(cells.map((cell) => cell.split('\n')[0])).toEqual([
      ' [markdown]', // intro (title, SQL note)
      '', // display() fallback, because a Python cell calls display()
      '', // what the script needs, checked first
      '', // _runpad_sql setup
      ' [markdown]',
      ' [markdown]',
      '',
      '',
      '',
      '',
      '',
      ' [markdown]',
      '',
      '',
      '',
      ' [markdown]',
    ]);
    expect(script.startsWith('# Exported from Runpad')).toBe(true);
    expect(cells[0]).toContain('# # Sales by region');
    expect(cells[1]).toBe(`\n${DISPLAY_FALLBACK}\n\n`);
    expect(cells[2]).toContain('("duckdb", "duckdb", "the SQL cells and sql()")');
    expect(cells[3]).toBe(`\n${SQL_SETUP_SOURCE.trimEnd()}\n\n`);
    expect(script.split('def _runpad_sql(').length).toBe(2);
    expect(cells[5]).toBe(' [markdown]\n# Summing.\n# Two lines.\n\n');
    expect(cells[6]).toBe('\ntotal = sum(range(1, 11))\nprint("sum", total)\n\n');
    expect(cells[7]).toBe('\n# (edited by the user)\ndisplay(total * 3)\n\n');
    expect(cells[9]).toBe('\n# The tool call failed: Kernel unavailable\nprint("tool failed")\n\n');
    expect(cells[10]).toBe('\n# (did not run in Runpad)\nprint("stopped")\n\n');
    expect(cells[12]).toBe(
      '\n# SQL run\nprint(_runpad_sql("SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY total DESC"))\n\n',
    );
    expect(cells[14].startsWith('\n# Graphviz run\n_runpad_dot = "digraph {')).toBe(true);
    expect(script.endsWith('# All done.\n')).toBe(true);
  });

  it('keeps every line of the talk in a comment', () => {
    const cells = cellsOf(script).filter((cell) => cell.startsWith(' [markdown]'));
    for (const cell of cells) {
      for (const line of cell.split('\n').slice(1)) if (line !== '') expect(line.startsWith('#')).toBe(true);
    }
    expect(toComment('a\rb\r\nc\u2028d\u0085e\f\vf\0g')).toBe('# a\n# b\n# c\n# d\n# e\n#\n# fg');
  });

  it('warns in the header when a cell uses top-level await, only then', () => {
    const awaiting: StoredMessage = { id: 'a', role: 'assistant', parts: [run('aw', 'tool-python', 'import micropip\nawait micropip.install("tqdm")')] };
    expect(toScript({ title: null, messages: [awaiting] }).split('# %%')[0]).toContain('top-level `await`');
    expect(script).not.toContain('top-level `await`');
  });

  it.skipIf(pythonMissing)('runs with python3, printing the results and seeing the exact SQL and DOT', () => {
    const dir = mkdtempSync(path.join(tmp, 'run-'));
    mkdirSync(path.join(dir, 'data'));
    writeFileSync(path.join(dir, 'data', 'sales.csv'), 'region,amount\nnorth,10\nsouth,45\nnorth,20\n');
    writeFileSync(path.join(dir, 'conversation.py'), script);
    writeFileSync(path.join(dir, 'runner.py'), SCRIPT_RUNNER);
    const out = stdlibPython(['runner.py', 'conversation.py'], { cwd: dir });
    const [printed, recorded] = out.split('\nSTATEMENTS ');
    expect(printed).not.toContain('LEAKED');
    expect(printed).toBe(
      [
        'Everything this notebook needs is installed.',
        'sum 55',
        '165',
        String.raw`'it\'s \'\'\'quoted\'\'\' \\ "\xe9" \U0001f600'`,
        'tool failed',
        'stopped',
        'result\n<duckdb result 2>\n[1 rows x 1 columns]',
        'result\n<duckdb result 3>\n[1 rows x 1 columns]',
        TRICKY_DOT,
        '',
      ].join('\n'),
    );
    const statements = JSON.parse(recorded) as string[];
    expect(statements).toEqual([
      "CREATE TABLE \"sales\" AS SELECT * FROM read_csv('data/sales.csv')",
      'SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY total DESC',
      TRICKY_SQL,
    ]);
  });
});

describe('scriptFileName', () => {
  it('makes a safe .py name', () => {
    expect(scriptFileName(null)).toBe('runpad-conversation.py');
    expect(scriptFileName('Q3 revenue / costs (draft)')).toBe('Q3-revenue-costs-draft.py');
    expect(scriptFileName('x'.repeat(300)).length).toBe(80);
  });
});

/**
 * Runs a script as `python3 script.py` would, with graphviz and IPython made unimportable (so
 * the result does not depend on what is installed) and a stand-in duckdb that records every
 * statement (DuckDB's wheel cannot be installed here).
 */
const SCRIPT_RUNNER = String.raw`${FAKE_DUCKDB_MODULE}
import json, runpy
sys.modules["graphviz"] = None
sys.modules["IPython"] = None
runpy.run_path(sys.argv[1], run_name="__main__")
print("\nSTATEMENTS " + json.dumps(FAKE_DUCKDB_LOG))
`;
