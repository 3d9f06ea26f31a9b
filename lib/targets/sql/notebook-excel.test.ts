/**
 * The exported notebook's SQL setup reads an Excel workbook in ./data/ as a table as Runpad does
 * (by its table name, by its path, with read_xlsx), with no DuckDB extension downloaded: pandas
 * over openpyxl reads it, and DuckDB is handed the frame. The workbook is written by openpyxl.
 * DuckDB's Python module is not a Debian package: a stand-in `duckdb` records what the setup asks
 * of it (the frames registered, every statement), so the test sees which file became which table
 * and that no statement needs the excel extension.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonEnvMissing, sharedPythonEnv } from '@/lib/testing/python-env';
import { skipOutsideCi } from '@/lib/testing/required';
import { SQL_SETUP_SOURCE } from './notebook';

const PACKAGES = ['python3-pandas', 'python3-openpyxl'];
const tmp = mkdtempSync(path.join(tmpdir(), 'runpad-notebook-excel-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const STAND_IN = `
import re
class Error(Exception):
    pass
class Connection:
    def __init__(self):
        self.frames, self.tables, self.statements = {}, {}, []
    def register(self, name, frame):
        self.frames[name] = frame
    def unregister(self, name):
        del self.frames[name]
    def execute(self, statement, parameters=None):
        self.statements.append(statement)
        made = re.match(r'CREATE OR REPLACE TABLE "(.+)" AS SELECT \\* FROM _runpad_sql_frame$', statement)
        if made:
            self.tables[made[1]] = self.frames["_runpad_sql_frame"]
        return self
def connect(path):
    return Connection()
`;

const WRITER = `
import datetime, sys
from openpyxl import Workbook
book = Workbook()
sheet = book.active
sheet.title = "Budget"
sheet.append(["item", "cost", "due"])
for i in range(1, 6):
    sheet.append([f"it's «{i}»", i * 1.5, datetime.date(2024, 1, i)])
book.create_sheet("Other").append(["k"])
book.save(sys.argv[1])
`;

const RUN = `
import json
namespace = {}
exec(open("setup.py").read(), namespace)
db = namespace["_runpad_sql_database"]()
frame = db.tables.get("ventas_2026")
print(json.dumps({
    "tables": sorted(db.tables),
    "rows": None if frame is None else [[str(v) for v in row] for row in frame.itertuples(index=False)],
    "columns": None if frame is None else list(frame.columns),
    "statements": db.statements,
}))
`;

describe("the exported notebook's sql() over an Excel workbook in ./data/", () => {
  it('makes it a table by its name and by its path, read_xlsx reads it, and nothing asks for the excel extension', () => {
    if (skipOutsideCi(pythonEnvMissing(PACKAGES))) return;
    const python = sharedPythonEnv(PACKAGES);
    const dir = path.join(tmp, 'export');
    mkdirSync(path.join(dir, 'data'), { recursive: true });
    mkdirSync(path.join(dir, 'stand-in'));
    writeFileSync(path.join(dir, 'stand-in', 'duckdb.py'), STAND_IN);
    writeFileSync(path.join(dir, 'setup.py'), SQL_SETUP_SOURCE);
    execFileSync(python.python, ['-c', WRITER, path.join(dir, 'data', 'ventas 2026.xlsx')], { env: python.env });
    const out = execFileSync(python.python, ['-c', RUN], { cwd: dir, encoding: 'utf8', env: { ...python.env, PYTHONPATH: path.join(dir, 'stand-in') } });
    const answer = JSON.parse(out) as { tables: string[]; rows: string[][] | null; columns: string[] | null; statements: string[] };
    expect(answer.tables).toEqual(['ventas_2026']);
    expect(answer.columns).toEqual(['item', 'cost', 'due']);
    expect(answer.rows).toHaveLength(5);
    expect(answer.rows?.[0]).toEqual(["it's «1»", '1.5', '2024-01-01 00:00:00']);
    expect(answer.statements).toContain('CREATE OR REPLACE VIEW "./data/ventas 2026.xlsx" AS SELECT * FROM "ventas_2026"');
    expect(answer.statements.some((statement) => /^CREATE OR REPLACE TEMP MACRO read_xlsx\(path, sheet := NULL/.test(statement))).toBe(true);
    expect(answer.statements.filter((statement) => /\b(INSTALL|LOAD)\b|excel/i.test(statement))).toEqual([]);
  });
});
