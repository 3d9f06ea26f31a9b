/**
 * The exported notebook's SQL helpers are the Python the app's worker runs, not a second copy:
 * the result table of the notebook (`_RunpadSqlTable`, in SQL_SETUP_SOURCE) is generated from
 * lib/targets/python/engine/runpad/sql_results.py (scripts/generate-notebook-python.py), prints exactly what
 * the app's SqlTable prints, its data files get the tables names the worker gives them (in the
 * notebook's Python and in the TypeScript that lists them), and the generated file is current.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SQL_SETUP_SOURCE, sqlTableNames } from './notebook';

/** Columns and rows written by other hands: quotes of every kind, newlines, non-Latin letters, long text, NULLs, NaN, numbers. */
const COLUMNS = ['name "quoted"', "it's", 'größe', '名前', 'line\nbreak', 'x'.repeat(70)];
const ROWS: Array<Array<string | number | null>> = [
  ['O\'Brien "the" `tick`', 'a\nb\r\nc', 'Straße', '東京', null, 'y'.repeat(200)],
  ['', ' leading and trailing ', 'ünïcode', 'مرحبا', 'NaN', -0],
  ...Array.from({ length: 70 }, (_, i): Array<string | number | null> => [`row ${i}`, i, i * 1.25, null, 'z', '\t']),
];

function python(script: string): string {
  return execFileSync('python3', ['-c', script], { encoding: 'utf8', cwd: 'lib/targets/python/engine', input: JSON.stringify({ columns: COLUMNS, rows: ROWS, setup: SQL_SETUP_SOURCE }) });
}

describe("the notebook's SQL helpers", () => {
  it("print a result table as the app's SqlTable does, for values of every kind", () => {
    const script = `
import json, math, sys
data = json.load(sys.stdin)
rows = [tuple(float("nan") if v == "NaN" else v for v in row) for row in data["rows"]]
namespace = {}
exec(data["setup"], namespace)
from runpad.sql_results import SqlTable
app = SqlTable(data["columns"], rows)
notebook = namespace["_RunpadSqlTable"](data["columns"], rows)
print(json.dumps([repr(app), repr(notebook), list(app) == list(notebook), app["it's"] == notebook["it's"], len(app) == len(notebook)]))
`;
    const [app, notebook, sameRows, sameColumn, sameLength] = JSON.parse(python(script)) as [string, string, boolean, boolean, boolean];
    expect(app).toContain('[72 rows x 6 columns]');
    expect(notebook).toBe(app);
    expect([sameRows, sameColumn, sameLength]).toEqual([true, true, true]);
  });

  it('name the data files\' tables as the worker does, in the notebook and in TypeScript, for names from every tool', () => {
    const files = [
      'Sales 2024.csv', 'sales_2024.csv', 'sales 2024.CSV', '2024-q1.TSV', 'notes.txt', '.hidden.csv', 'Ünïcode.csv', 'İstanbul.parquet', 'K.json',
      'sqlite_master.csv', 'a.b.csv', 'a..csv', '😀.csv', '😀😀.jsonl', '.csv', '..csv', 'x.CSV', 'ｘ.csv', 'ß.ndjson', 'ǅx.parquet', "it's \"quoted\".csv",
      'line\nbreak.csv', 'sales.xlsx', 'sales.csv', 'Sales.arrow', 'data.feather', '_.csv', '.', '名前.tsv', 'ΟΔΟΣ.csv',
    ];
    const script = `
import json, sys
data = json.load(sys.stdin)
namespace = {}
exec(data["setup"], namespace)
from runpad.dataset_tables import table_format, table_names
files = data["files"]
print(json.dumps([table_names([f for f in files if table_format(f)]), namespace["_runpad_sql_table_names"](files)]))
`;
    const input = JSON.stringify({ files, setup: SQL_SETUP_SOURCE });
    const [worker, notebook] = JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8', cwd: 'lib/targets/python/engine', input })) as [Record<string, string>, Record<string, string>];
    expect(worker['sales_2024.csv']).toBe('sales_2024');
    expect(notebook).toEqual(worker);
    expect(Object.fromEntries(sqlTableNames(files))).toEqual(worker);
  });

  it('are generated from the Python the worker runs, and the generated file is current', () => {
    const generated = execFileSync('python3', ['scripts/generate-notebook-python.py', '--print'], { encoding: 'utf8' });
    expect(fs.readFileSync('lib/targets/sql/notebook-python.generated.ts', 'utf8')).toBe(generated);
  });
});
