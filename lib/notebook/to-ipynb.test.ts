/**
 * The notebook export: mappings checked on a realistic stored conversation, the result checked by
 * nbformat's own validator, and a stdlib-only notebook executed top to bottom in CPython.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';
import { SQL_SETUP_SOURCE, sqlTableNames } from '@/lib/targets/sql/notebook';
import { dotCellSource } from '@/lib/targets/graphviz/notebook';
import { FAKE_DUCKDB_MODULE } from '../testing/fake-duckdb';
import { isolatedPythonMissing, pythonEnvMissing, pythonEnvWith, stdlibPython } from '../testing/python-env';
import { skipOutsideCi } from '../testing/required';
import { notebookFileName, toLines, toNotebook, type CodeCell, type MimeData, type Notebook } from './to-ipynb.server';

/** A valid 1×1 PNG (grey and alpha). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PNG_SHA = 'a'.repeat(64);
const MISSING_SHA = 'b'.repeat(64);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="62pt" height="116pt">\n<g id="graph0" class="graph"><text>a</text></g>\n</svg>\n';

const CHART = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', mark: 'bar', data: { values: [{ region: 'north', amount: 10 }] }, encoding: { x: { field: 'region' }, y: { field: 'amount', type: 'quantitative' } } };
const tmp = mkdtempSync(path.join(tmpdir(), 'runpad-notebook-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Debian's python3 on the standard library alone, and a venv with exactly nbformat (lib/testing/python-env.ts). */
const pythonMissing = skipOutsideCi(isolatedPythonMissing());
const nbformatMissing = skipOutsideCi(pythonEnvMissing(['python3-nbformat']));

const table = (rows: Array<Record<string, unknown>>, fields: Array<[string, string]>, shape?: [number, number]) => ({
  schema: { fields: fields.map(([name, type]) => ({ name, type })) },
  data: rows,
  ...(shape ? { shape } : {}),
});

const conversation: StoredMessage[] = [
  {
    id: 'msg-user-1',
    role: 'user',
    parts: [{ type: 'text', text: 'Load sales.csv and add up the **amounts**.\n\n- by region too' }],
    metadata: { files: [{ name: 'sales.csv', size: 1234, mediaType: 'text/csv', sha256: 'c'.repeat(64) }] },
  },
  {
    id: 'msg-asst-1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'The user wants a sum.' },
      { type: 'text', text: 'Let me load the file.' },
      { type: 'text', text: 'Then sum it.' },
      {
        type: 'tool-python',
        toolCallId: 'call_sum',
        state: 'output-available',
        input: { code: 'import pandas as pd\ndf = pd.read_csv("/data/sales.csv")\nprint("total", df.amount.sum())\ndf.amount.sum()' },
        output: {
          status: 'ok',
          durationMs: 41,
          outputs: [
            { output_type: 'stream', name: 'stdout', text: 'total 60\n' },
            { output_type: 'execute_result', data: { 'text/plain': '60' } },
          ],
        },
      },
      { type: 'step-start' },
      {
        type: 'tool-python',
        toolCallId: 'call_plot',
        state: 'output-available',
        input: { code: 'df.plot()' },
        output: {
          status: 'ok',
          durationMs: 300,
          outputs: [
            { output_type: 'display_data', data: { 'image/png': `blob:${PNG_SHA}`, 'text/plain': '<Figure size 640x480 with 1 Axes>' } },
            { output_type: 'display_data', data: { 'application/vnd.vegalite.v5+json': CHART, 'image/png': PNG_1X1, 'text/plain': '<Vega-Lite chart: bar>' } },
          ],
        },
      },
      {
        type: 'tool-python',
        toolCallId: 'call_table',
        state: 'output-available',
        input: { code: 'display(df)' },
        output: {
          status: 'ok',
          durationMs: 12,
          outputs: [
            {
              output_type: 'display_data',
              data: {
                'application/vnd.dataresource+json': table(
                  [
                    { region: 'north', amount: 10, note: '<b>big</b> & "bold"' },
                    { region: 'south', amount: 250, note: null },
                  ],
                  [
                    ['region', 'string'],
                    ['amount', 'integer'],
                    ['note', 'string'],
                  ],
                  [120, 3],
                ),
              },
            },
          ],
        },
      },
      { type: 'text', text: 'That failed:' },
      {
        type: 'tool-python',
        toolCallId: 'call_err',
        state: 'output-available',
        input: { code: '1 / 0' },
        output: {
          status: 'error',
          durationMs: 2,
          outputs: [
            {
              output_type: 'error',
              ename: 'ZeroDivisionError',
              evalue: 'division by zero',
              traceback: ['Traceback (most recent call last):', '  File "<cell-4>", line 1, in <module>', 'ZeroDivisionError: division by zero'],
            },
          ],
        },
      },
    ],
  },
  { id: 'msg-user-2', role: 'user', parts: [{ type: 'text', text: 'Now per region, in SQL, and draw the flow.' }] },
  {
    id: 'msg-asst-2',
    role: 'assistant',
    parts: [
      {
        type: 'tool-python',
        toolCallId: 'call_edit',
        state: 'output-available',
        input: { code: 'df.to_csv("/output/clean.csv")\nprint(df.amount.mean())' },
        output: {
          status: 'ok',
          durationMs: 9,
          userRun: 'edited',
          restarted: true,
          notice: 'The interpreter was restarted; variables were lost.',
          outputs: [
            { output_type: 'stream', name: 'stdout', text: '20.0\n' },
            { output_type: 'file', name: 'clean.csv', size: 2048, mediaType: 'text/csv', ref: `blob:${'d'.repeat(64)}` },
          ],
        },
      },
      {
        type: 'tool-sql',
        toolCallId: 'call_sql',
        state: 'output-available',
        input: { code: 'SELECT region, SUM(amount) AS total\nFROM sales\nGROUP BY region' },
        output: {
          status: 'ok',
          durationMs: 5,
          outputs: [
            {
              output_type: 'execute_result',
              data: {
                'application/vnd.dataresource+json': table(
                  [
                    { region: 'north', total: 30 },
                    { region: 'south', total: 30 },
                  ],
                  [
                    ['region', 'string'],
                    ['total', 'integer'],
                  ],
                ),
              },
            },
          ],
        },
      },
      {
        type: 'tool-graphviz',
        toolCallId: 'call_dot',
        state: 'output-available',
        input: { code: 'digraph { load -> sum }' },
        output: {
          status: 'ok',
          durationMs: 30,
          outputs: [{ output_type: 'display_data', data: { 'image/svg+xml': SVG, 'image/png': `blob:${MISSING_SHA}` } }],
        },
      },
      { type: 'text', text: 'Done.' },
      // The user stopped the turn before this ran.
      { type: 'tool-python', toolCallId: 'call_stopped', state: 'input-available', input: { code: 'print("never")' } },
    ],
  },
];

const resolved: string[] = [];
const resolveImage = async (sha256: string) => {
  resolved.push(sha256);
  return sha256 === PNG_SHA ? PNG_1X1 : null;
};

const joined = (lines: MimeData[string]) => (typeof lines === 'string' ? lines : Array.isArray(lines) ? lines.join('') : JSON.stringify(lines));
const codeCell = (nb: Notebook, toolCallId: string) => {
  const cell = nb.cells.find((c) => c.id === toolCallId);
  if (!cell || cell.cell_type !== 'code') throw new Error(`no code cell ${toolCallId}`);
  return cell;
};

describe('toNotebook', () => {
  it('maps the talk to markdown and the runs to code cells with their outputs', async () => {
    const nb = await toNotebook({ title: 'Sales by region', messages: conversation, resolveImage });
    expect(nb.nbformat).toBe(4);
    expect(nb.nbformat_minor).toBe(5);
    expect(nb.metadata.kernelspec).toEqual({ name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' });
    expect(nb.metadata.language_info.name).toBe('python');
    expect(nb.metadata.runpad).toEqual({ title: 'Sales by region' });

    expect(nb.cells.map((c) => [c.cell_type, c.id])).toEqual([
      ['markdown', 'runpad-intro'],
      ['code', 'runpad-requirements'],
      ['code', 'runpad-sql-setup'],
      ['markdown', 'msg-user-1'],
      ['markdown', 'msg-asst-1-2'],
      ['code', 'call_sum'],
      ['code', 'call_plot'],
      ['code', 'call_table'],
      ['markdown', 'msg-asst-1-8'],
      ['code', 'call_err'],
      ['markdown', 'msg-user-2'],
      ['code', 'call_edit'],
      ['code', 'call_sql'],
      ['code', 'call_dot'],
      ['markdown', 'msg-asst-2-3'],
      ['code', 'call_stopped'],
    ]);

    const intro = joined(nb.cells[0].source);
    expect(intro.startsWith('# Sales by region\n\n')).toBe(true);
    expect(intro).toContain('- `sales.csv` (1.2 kB), SQL table `sales`');

    expect(joined(nb.cells[1].source)).toContain('("duckdb", "duckdb", "the SQL cells and sql()")');
    expect(joined(nb.cells[1].source)).toContain('("pandas", "pandas", "the Python cells")');
    const setup = nb.cells[2] as CodeCell;
    expect(joined(setup.source)).toBe(SQL_SETUP_SOURCE);
    expect(setup.metadata).toMatchObject({ jupyter: { source_hidden: true }, runpad: { role: 'sql-setup' } });
    expect(setup.execution_count).toBeNull();
    expect(setup.outputs).toEqual([]);

    expect(joined(nb.cells[3].source)).toBe(
      '**You:**\n\nLoad sales.csv and add up the **amounts**.\n\n- by region too\n\nAttached (under `/data/` in Runpad, `./data/` here):\n- `sales.csv` (1.2 kB)',
    );
    expect(nb.cells[4].source).toEqual(['Let me load the file.\n', '\n', 'Then sum it.']);

    const sum = codeCell(nb, 'call_sum');
    expect(sum.source).toEqual(['import pandas as pd\n', 'df = pd.read_csv("./data/sales.csv")\n', 'print("total", df.amount.sum())\n', 'df.amount.sum()']);
    expect(sum.execution_count).toBe(1);
    expect(sum.metadata).toEqual({ runpad: { language: 'python', status: 'ok', durationMs: 41 } });
    expect(sum.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: ['total 60\n'] },
      { output_type: 'execute_result', execution_count: 1, data: { 'text/plain': ['60'] }, metadata: {} },
    ]);

    expect(codeCell(nb, 'call_plot').outputs).toEqual([
      { output_type: 'display_data', data: { 'image/png': PNG_1X1, 'text/plain': ['<Figure size 640x480 with 1 Axes>'] }, metadata: {} },
      // The chart stays a spec (JSON), so Jupyter draws it; the PNG made for the model comes along.
      { output_type: 'display_data', data: { 'application/vnd.vegalite.v5+json': CHART, 'image/png': PNG_1X1, 'text/plain': ['<Vega-Lite chart: bar>'] }, metadata: {} },
    ]);

    const tableOutput = codeCell(nb, 'call_table').outputs[0];
    if (tableOutput.output_type !== 'display_data') throw new Error('expected display_data');
    expect(Object.keys(tableOutput.data).sort()).toEqual(['text/html', 'text/plain']);
    const html = joined(tableOutput.data['text/html']);
    expect(html).toContain('<th>region</th><th>amount</th><th>note</th>');
    expect(html).toContain('<tr><td>north</td><td>10</td><td>&lt;b&gt;big&lt;/b&gt; &amp; &quot;bold&quot;</td></tr>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<p>[120 rows × 3 columns; first 2 rows shown]</p>');
    expect(joined(tableOutput.data['text/plain'])).toBe(
      [
        'region | amount | note',
        '-------+--------+--------------------',
        'north  |     10 | <b>big</b> & "bold"',
        'south  |    250 |',
        '[120 rows × 3 columns; first 2 rows shown]',
      ].join('\n'),
    );

    const err = codeCell(nb, 'call_err');
    expect(err.metadata).toEqual({ runpad: { language: 'python', status: 'error', durationMs: 2 } });
    expect(err.outputs).toEqual([
      {
        output_type: 'error',
        ename: 'ZeroDivisionError',
        evalue: 'division by zero',
        traceback: ['Traceback (most recent call last):', '  File "<cell-4>", line 1, in <module>', 'ZeroDivisionError: division by zero'],
      },
    ]);

    const edited = codeCell(nb, 'call_edit');
    expect(edited.metadata).toEqual({ runpad: { language: 'python', status: 'ok', durationMs: 9, userRun: 'edited', restarted: true } });
    expect(edited.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: ['20.0\n'] },
      { output_type: 'stream', name: 'stdout', text: ['[file] /output/clean.csv (2.0 kB, text/csv): download it from the Runpad conversation\n'] },
      { output_type: 'stream', name: 'stderr', text: ['The interpreter was restarted; variables were lost.\n'] },
    ]);

    const sql = codeCell(nb, 'call_sql');
    expect(joined(sql.source)).toBe('_runpad_sql("SELECT region, SUM(amount) AS total\\nFROM sales\\nGROUP BY region")');
    expect(sql.metadata).toEqual({ runpad: { language: 'sql', status: 'ok', durationMs: 5 } });
    const sqlResult = sql.outputs[0];
    if (sqlResult.output_type !== 'execute_result') throw new Error('expected execute_result');
    expect(sqlResult.execution_count).toBe(sql.execution_count);
    expect(joined(sqlResult.data['text/plain'])).toBe('region | total\n-------+------\nnorth  |    30\nsouth  |    30');
    expect(JSON.stringify(sqlResult)).not.toContain('dataresource');

    const dot = codeCell(nb, 'call_dot');
    expect(joined(dot.source).split('\n')[0]).toBe('_runpad_dot = "digraph { load -> sum }"');
    expect(joined(dot.source)).toContain('graphviz.Source(_runpad_dot)');
    expect(dot.metadata).toEqual({ runpad: { language: 'dot', status: 'ok', durationMs: 30 } });
    // The PNG blob cannot be resolved: dropped, the SVG kept as text.
    expect(dot.outputs).toEqual([{ output_type: 'display_data', data: { 'image/svg+xml': toLines(SVG) }, metadata: {} }]);

    const stopped = codeCell(nb, 'call_stopped');
    expect(stopped).toMatchObject({ execution_count: null, outputs: [], metadata: { runpad: { language: 'python' } } });

    const counts = nb.cells.filter((c): c is CodeCell => c.cell_type === 'code').map((c) => c.execution_count);
    expect(counts).toEqual([null, null, 1, 2, 3, 4, 5, 6, 7, null]);
  });

  it('resolves each blob once and leaves a note when an image-only output cannot be resolved', async () => {
    resolved.length = 0;
    const twice: StoredMessage = {
      id: 'm',
      role: 'assistant',
      parts: ['p1', 'p2', 'p3'].map((toolCallId, i) => ({
        type: 'tool-python',
        toolCallId,
        state: 'output-available',
        input: { code: 'plot()' },
        output: { status: 'ok', durationMs: 1, outputs: [{ output_type: 'display_data', data: { 'image/png': `blob:${i < 2 ? PNG_SHA : MISSING_SHA}` } }] },
      })),
    };
    const nb = await toNotebook({ title: null, messages: [twice], resolveImage });
    expect(resolved.sort()).toEqual([PNG_SHA, MISSING_SHA]);
    expect(codeCell(nb, 'p3').outputs).toEqual([{ output_type: 'display_data', data: { 'text/plain': ['[image not available]'] }, metadata: {} }]);
    // No title, files or SQL: no intro cell and no setup cell.
    expect(nb.cells.map((c) => c.id)).toEqual(['p1', 'p2', 'p3']);
  });

  it('gives every cell a valid, unique id', async () => {
    const messages: StoredMessage[] = [
      { id: 'same id/with spaces', role: 'user', parts: [{ type: 'text', text: 'one' }] },
      { id: 'same id/with spaces', role: 'user', parts: [{ type: 'text', text: 'two' }] },
      { id: 'runpad-intro', role: 'user', parts: [{ type: 'text', text: 'three' }] },
      { id: 'x'.repeat(200), role: 'user', parts: [{ type: 'text', text: 'four' }] },
      { id: 'x'.repeat(200), role: 'user', parts: [{ type: 'text', text: 'five' }] },
      { id: '', role: 'user', parts: [{ type: 'text', text: 'six' }] },
      { id: 'sys', role: 'system', parts: [{ type: 'text', text: 'not exported' }] },
    ];
    const nb = await toNotebook({ title: 'T', messages, resolveImage });
    const ids = nb.cells.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(ids).toEqual(['runpad-intro', 'same-id-with-spaces', 'same-id-with-spaces-2', 'runpad-intro-2', 'x'.repeat(56), `${'x'.repeat(56)}-2`, 'cell']);
    expect(nb.cells.some((c) => joined(c.source).includes('not exported'))).toBe(false);
  });

  it('lists the answers\' figures that no output shows in a last markdown cell, and only those', async () => {
    const messages: StoredMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Total?' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'tool-python', toolCallId: 'c1', state: 'output-available', input: { code: 'print(60)' }, output: { status: 'ok', durationMs: 3, outputs: [{ output_type: 'stream', name: 'stdout', text: 'total 60\n' }] } },
          { type: 'text', text: 'The total is 60, about 15% more than in 2023.' },
        ],
      },
    ];
    const nb = await toNotebook({ title: 'T', messages, resolveImage });
    const last = nb.cells.at(-1)!;
    expect(last.cell_type).toBe('markdown');
    expect(last.id).toBe('runpad-untraced-figures');
    const text = joined(last.source);
    expect(text).toContain('## Figures not found in any output');
    expect(text).toContain('- **15%** in answer 1');
    expect(text).not.toContain('**60**');
    expect(text).not.toContain('**2023**');

    const allTraced = await toNotebook({ title: 'T', messages: [messages[0], { ...messages[1], parts: [messages[1].parts[0], { type: 'text', text: 'The total is 60.' }] }], resolveImage });
    expect(allTraced.cells.some((c) => c.id === 'runpad-untraced-figures')).toBe(false);
  });

  it.skipIf(nbformatMissing)('is valid nbformat 4.5, by the nbformat validator', async () => {
    const nbformat = pythonEnvWith(['python3-nbformat'], path.join(mkdtempSync(path.join(tmp, 'venv-')), 'venv'));
    const nb = await toNotebook({ title: 'Sales by region', messages: conversation, resolveImage });
    const file = path.join(tmp, 'valid.ipynb');
    writeFileSync(file, JSON.stringify(nb, null, 1));
    const out = execFileSync(nbformat.python, ['-c', 'import nbformat,sys; nb=nbformat.read(sys.argv[1], as_version=4); nbformat.validate(nb); print(nb.nbformat_minor, "valid")', file], {
      encoding: 'utf8',
      env: nbformat.env,
    });
    expect(out.trim()).toBe('5 valid');
  });
});

describe('a stdlib-only notebook, executed top to bottom', () => {
  const trickyPython = 'word = """he said \'\'\'hi\'\'\' \\\\ "é" 😀"""\nprint(len(word), ascii(word))';
  const trickySql = "-- a comment with \"\"\" and ''' and \\ and é\nSELECT 'a\"\"\"b' AS q1, 'c''''''d' AS q2, '\\n\\' AS bs, 'é😀' AS u;";
  const trickyDot = 'digraph "g\\"" { a [label="x\\\\ \\"\\"\\" \'\'\' é 😀"]; a -> b }';
  const messages: StoredMessage[] = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Sum 1..10, then the sales per region' }] },
    {
      id: 'a1',
      role: 'assistant',
      parts: ['total = sum(range(1, 11))\nprint("sum", total)', 'total * 2', trickyPython].map((code, i) => ({
        type: 'tool-python',
        toolCallId: `py${i}`,
        state: 'output-available',
        input: { code },
        output: { status: 'ok', durationMs: 1, outputs: [] },
      })),
    },
    {
      id: 'a2',
      role: 'assistant',
      parts: [
        ...[
          'SELECT region, SUM(amount) AS total, MAX(zip) AS zip, ROUND(SUM(price), 2) AS price\nFROM sales\nGROUP BY region\nORDER BY region',
          trickySql,
          'SELECT COUNT(*) AS n FROM t_2024_q1 WHERE "Unit Price" > 1',
        ].map((code, i) => ({ type: 'tool-sql', toolCallId: `sql${i}`, state: 'output-available', input: { code }, output: { status: 'ok', durationMs: 1, outputs: [] } })),
        { type: 'tool-graphviz', toolCallId: 'dot0', state: 'output-available', input: { code: trickyDot }, output: { status: 'ok', durationMs: 1, outputs: [] } },
      ],
    },
  ];

  it.skipIf(pythonMissing)('prints the right sum, SQL aggregates and the exact SQL and DOT texts', async () => {
    const nb = await toNotebook({ title: 'Executed', messages, resolveImage });
    const dir = mkdtempSync(path.join(tmp, 'run-'));
    mkdirSync(path.join(dir, 'data'));
    writeFileSync(path.join(dir, 'data', 'sales.csv'), 'region,amount,zip,price\nnorth,10,02134,1.5\nsouth,5,99501,2.25\nnorth,20,02139,0.5\n');
    writeFileSync(path.join(dir, 'data', '2024-Q1.tsv'), 'item\tUnit Price\nA\t1.5\nB\t0.5\nC\t3\n');
    writeFileSync(path.join(dir, 'notebook.ipynb'), JSON.stringify(nb));
    writeFileSync(path.join(dir, 'driver.py'), NOTEBOOK_DRIVER);
    const out = stdlibPython(['driver.py', 'notebook.ipynb'], { cwd: dir });
    const cells = outputsByCell(out);

    expect(cells.get('py0')).toBe('sum 55\n');
    expect(cells.get('py1')).toBe('110\n');
    expect(cells.get('py2')).toBe(`${[...'he said \'\'\'hi\'\'\' \\ "é" 😀'].length} 'he said \\'\\'\\'hi\\'\\'\\' \\\\ "\\xe9" \\U0001f600'\n`);
    // Each data file became a table through DuckDB's own reader, then each cell's exact SQL ran.
    const log = JSON.parse(out.split('\nDUCKDB ')[1]) as string[];
    expect(log.slice(0, 2)).toEqual([
      'CREATE TABLE "sales" AS SELECT * FROM read_csv(\'data/sales.csv\')',
      'CREATE TABLE "t_2024_q1" AS SELECT * FROM read_csv(\'data/2024-Q1.tsv\', delim = \'\t\')',
    ]);
    expect(log.slice(2)).toEqual(messages[2].parts.slice(0, 3).map((part) => (part as { input: { code: string } }).input.code));
    expect(cells.get('sql0')).toBe('result\n<duckdb result 3>\n[1 rows x 1 columns]\n');
    expect(cells.get('sql2')).toBe('result\n<duckdb result 5>\n[1 rows x 1 columns]\n');
    expect(cells.get('dot0')).toBe(`${trickyDot}\n`);
    const queries = JSON.parse(out.split('\nQUERIES ')[1].split('\nDUCKDB ')[0]) as string[];
    expect(queries).toEqual(messages[2].parts.slice(0, 3).map((part) => (part as { input: { code: string } }).input.code));
  });
});

describe('a Graphviz cell', () => {
  const dot = 'digraph { "a\\"b" -> c [label="\'\'\' é"] }';
  /** Runs the cell with stand-ins for graphviz and IPython; `mode` picks what they do. */
  const runCell = (mode: 'draws' | 'no-dot-program' | 'not-in-ipython') => {
    const stubs = String.raw`import sys, types
mode = sys.argv[1]
class Source:
    def __init__(self, source):
        self.source = source
    def pipe(self, format):
        if mode == "no-dot-program":
            raise RuntimeError("failed to execute PosixPath('dot')")  # graphviz.ExecutableNotFound
        return ("<svg>" + format + ":" + self.source + "</svg>").encode("utf-8")
graphviz = types.ModuleType("graphviz"); graphviz.Source = Source
ipython = types.ModuleType("IPython"); ipython.get_ipython = lambda: None if mode == "not-in-ipython" else object()
display = types.ModuleType("IPython.display")
display.SVG = lambda data: ("SVG", data)
display.display = lambda obj: print("displayed", obj[0], obj[1])
sys.modules.update({"graphviz": graphviz, "IPython": ipython, "IPython.display": display})
`;
    return stdlibPython(['-c', `${stubs}\n${dotCellSource(dot)}\n`, mode]);
  };

  it.skipIf(pythonMissing)('displays the SVG that graphviz draws from the exact DOT, else prints the DOT', () => {
    expect(runCell('draws')).toBe(`displayed SVG <svg>svg:${dot}</svg>\n`);
    expect(runCell('no-dot-program')).toBe(`${dot}\n`);
    expect(runCell('not-in-ipython')).toBe(`${dot}\n`);
  });
});

describe('SQL helpers', () => {
  it.skipIf(pythonMissing)('name tables the same way in TypeScript and in the Python helper', () => {
    const files = ['Sales 2024.csv', 'sales_2024.csv', '2024-q1.TSV', 'notes.txt', '.hidden.csv', 'Ünïcode.csv', 'sqlite_master.csv', 'a.b.csv', '😀.csv', '.csv', 'x.CSV', 'ｘ.csv'];
    const script = `${SQL_SETUP_SOURCE}\nimport json\nprint(json.dumps(_runpad_sql_table_names(json.loads(${pythonStringLiteral(JSON.stringify(files))}))))\n`;
    const fromPython = JSON.parse(stdlibPython(['-c', script])) as Record<string, string>;
    const fromTs = Object.fromEntries(sqlTableNames(files));
    expect(fromTs).toEqual(fromPython);
    expect(fromTs).toEqual({
      '2024-q1.TSV': 't_2024_q1',
      // A file whose name already is its table name gets it first, as in the app (dataset_tables.py).
      'Sales 2024.csv': 'sales_2024_2',
      'a.b.csv': 'a_b',
      'sales_2024.csv': 'sales_2024',
      'sqlite_master.csv': 't_sqlite_master',
      'x.CSV': 'x',
      'Ünïcode.csv': '_n_code',
      'ｘ.csv': '_',
      '😀.csv': '__2',
    });
  });

  it.skipIf(pythonMissing)('writes Python string literals that read back exactly', () => {
    const samples = ['', '"""', "'''", '\\', '\\"', 'a\nb\r\nc\td', '\0\x01\x7f\x85', '\u2028\u2029\ufeff', 'é 😀 ｘ', '\ud800 lone', 'end\\'];
    const script = `import json\nprint(json.dumps([${samples.map(pythonStringLiteral).join(', ')}]))`;
    const back = JSON.parse(stdlibPython(['-c', script])) as string[];
    expect(back).toEqual(samples);
    for (const literal of samples.map(pythonStringLiteral)) expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
  });
});

describe('notebookFileName', () => {
  it('makes a short, ASCII-safe name', () => {
    expect(notebookFileName(null)).toBe('runpad-conversation.ipynb');
    expect(notebookFileName('   ')).toBe('runpad-conversation.ipynb');
    expect(notebookFileName('Ventes été 2024: ../../etc/passwd')).toBe('Ventes-ete-2024-etc-passwd.ipynb');
    expect(notebookFileName('数据')).toBe('runpad-conversation.ipynb');
    expect(notebookFileName('CON')).toBe('runpad-conversation.ipynb');
    const long = notebookFileName('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^[A-Za-z0-9_-]+\.ipynb$/);
  });
});

/** Splits the driver's output into each code cell's printed text. */
function outputsByCell(out: string): Map<string, string> {
  const cells = new Map<string, string>();
  const body = out.split('\nQUERIES ')[0];
  for (const chunk of body.split('=== cell ').slice(1)) {
    const newline = chunk.indexOf('\n');
    cells.set(chunk.slice(0, newline), chunk.slice(newline + 1));
  }
  return cells;
}

/**
 * Runs a notebook's code cells in order in one namespace, as a kernel would: the last expression's
 * value is printed (Jupyter's display hook), `display` falls back to print, and graphviz and
 * IPython are made unimportable so the run does not depend on what is installed. Every query
 * `_runpad_sql` receives is recorded, to compare with the original text.
 */
const NOTEBOOK_DRIVER = String.raw`${FAKE_DUCKDB_MODULE}
import ast, json, sys
sys.modules["graphviz"] = None
sys.modules["IPython"] = None
notebook = json.load(open(sys.argv[1], encoding="utf-8"))
namespace = {"__name__": "__main__", "display": print}
queries = []
for cell in notebook["cells"]:
    if cell["cell_type"] != "code":
        continue
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    print("=== cell " + cell["id"])
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
        if value is not None:
            print(repr(value))
    if "_runpad_sql" in namespace and not queries and not getattr(namespace["_runpad_sql"], "recording", False):
        original = namespace["_runpad_sql"]
        def recording(query, original=original):
            queries.append(query)
            return original(query)
        recording.recording = True
        namespace["_runpad_sql"] = recording
print("\nQUERIES " + json.dumps(queries))
print("\nDUCKDB " + json.dumps(FAKE_DUCKDB_LOG))
`;
