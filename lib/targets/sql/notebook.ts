/**
 * SQL's notebook form: what SQL cells need to run outside Runpad, for the notebook and the script exporters: the
 * Python source of `_runpad_sql` (standard library only), the rule that names a data file's table
 * (in TypeScript, and in the worker's own Python, generated into the notebook). Python string literals: `lib/targets/shared/python-string-literal.ts`.
 *
 * Decision: an exported SQL cell is `_runpad_sql("<query>")`, the query written as an ordinary
 * double-quoted Python literal by `pythonStringLiteral` (every quote, backslash and control or
 * invisible character escaped, so no query text can end the literal early). `_runpad_sql`,
 * defined once in a setup cell, runs the query with `duckdb` (Runpad's own engine, so the dialect
 * is the same) in an in-memory database in which every CSV/TSV/JSON/Parquet file of `./data/` is
 * a table named by `sqlTableName`, read by DuckDB's own readers; it returns a
 * pandas DataFrame (or DuckDB's relation without pandas), which Jupyter displays as a table.
 */
import { pythonStringLiteral } from '@/lib/targets/shared/python-string-literal';
import { TABLE_FILE_EXTENSIONS, WORKER_PYTHON } from './notebook-python.generated';

/** Python's os.path.splitext(name)[1]: the last dot's part, unless only dots come before it. */
function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && /[^.]/.test(fileName.slice(0, dot)) ? fileName.slice(dot) : '';
}

/** Whether a data file is loaded as a table: an extension the worker reads (TABLE_FILE_EXTENSIONS), not hidden. */
export function isTableFile(fileName: string): boolean {
  return !fileName.startsWith('.') && TABLE_FILE_EXTENSIONS.includes(extensionOf(fileName).toLowerCase());
}

/**
 * The table a data file becomes, as the worker names it (lib/targets/python/engine/runpad/dataset_tables.py,
 * base_table_name): its name without the last extension, lowercased, every character outside
 * `[a-z0-9_]` replaced by `_`; `data` when that is empty; `t_` in front when it starts with a digit
 * or with `sqlite_` (reserved by SQLite).
 */
export function sqlTableName(fileName: string): string {
  const stem = fileName.slice(0, fileName.length - extensionOf(fileName).length);
  const name = stem.toLowerCase().replace(/[^a-z0-9_]/gu, '_') || 'data';
  return /^[0-9]/.test(name) || name.startsWith('sqlite_') ? `t_${name}` : name;
}

/**
 * Table names for the table files among `fileNames`, as the worker gives them to files arriving
 * together (dataset_tables.py, table_names): a file whose name already is its table name first,
 * then in code point order (Python's sort), with `_2`, `_3`… on a clash.
 */
export function sqlTableNames(fileNames: string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const renamed = (fileName: string) => (fileName.slice(0, fileName.length - extensionOf(fileName).length) === sqlTableName(fileName) ? 0 : 1);
  const order = [...new Set(fileNames)].filter(isTableFile).sort((a, b) => renamed(a) - renamed(b) || compareCodePoints(a, b));
  for (const fileName of order) {
    const base = sqlTableName(fileName);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}_${n}`;
    taken.add(name);
    names.set(fileName, name);
  }
  return names;
}

function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a, (ch) => ch.codePointAt(0) ?? 0);
  const right = Array.from(b, (ch) => ch.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) if (left[i] !== right[i]) return left[i] - right[i];
  return left.length - right.length;
}

/** The Python expression an SQL cell becomes. */
export function sqlCellSource(query: string): string {
  return `_runpad_sql(${pythonStringLiteral(query)})`;
}

/**
 * Defines what Runpad's Python has for SQL, as the app has it (lib/targets/python/engine/runpad/sql.py):
 * `sql(query)`, `sql_table(name, data)` and `_sql` (the last SQL cell's result), plus
 * `_runpad_sql(query)`, which SQL cells call. Helper names start with `_runpad_` so they do not
 * collide with the conversation's own variables; imports happen inside the functions for the
 * same reason. Without the `duckdb` package every one of them fails saying how to install it.
 * The table names and the result table without pandas are the worker's own Python
 * (lib/targets/python/engine/runpad/dataset_tables.py, sql_results.py), generated into WORKER_PYTHON by
 * scripts/generate-notebook-python.py.
 */
export const SQL_SETUP_SOURCE = String.raw`# Runpad's SQL outside Runpad: sql(query), sql_table(name, data), _sql and the SQL cells run in
# DuckDB (pip install duckdb), Runpad's own SQL engine, in an in-memory database in which every
# CSV/TSV/JSON/Parquet/Excel/Arrow file of ./data/ is a table named after its file (sales-2024.csv
# -> sales_2024), read by DuckDB's own readers; Excel (.xlsx, its first sheet) and Arrow/Feather
# by pandas (openpyxl, pyarrow), as DuckDB reads them only through an extension it downloads.
# Results are pandas DataFrames when pandas is installed, else tables with .columns and .rows.
_runpad_sql_db = None
_RUNPAD_SQL_READERS = {".csv": "read_csv", ".tsv": "read_csv", ".json": "read_json", ".jsonl": "read_json", ".ndjson": "read_json", ".parquet": "read_parquet"}
_RUNPAD_SQL_FRAMES = {".xlsx": "pandas openpyxl", ".arrow": "pandas pyarrow", ".feather": "pandas pyarrow"}
_RUNPAD_NO_DUCKDB = "DuckDB is not installed, and this cell needs it (Runpad's SQL engine): pip install duckdb (or pip install -r requirements.txt), then run the notebook again."


${WORKER_PYTHON}


def _runpad_sql_table_names(file_names):
    """Data file name -> table name, as Runpad names the files of /data (the worker's own code, above)."""
    return _runpad_table_names([name for name in file_names if _runpad_table_format(name)])


def _runpad_duckdb():
    try:
        import duckdb
    except ImportError:
        raise ModuleNotFoundError(_RUNPAD_NO_DUCKDB, name="duckdb") from None
    return duckdb


def _runpad_sql_quote(name):
    return '"' + str(name).replace('"', '""') + '"'


def _runpad_sql_source(path):
    import os
    extension = os.path.splitext(path)[1].lower()
    options = ", delim = '\t'" if extension == ".tsv" else ", format = 'newline_delimited'" if extension in (".jsonl", ".ndjson") else ""
    return f"{_RUNPAD_SQL_READERS[extension]}('{path.replace(chr(39), chr(39) * 2)}'{options})"


def _runpad_sql_load_frame(db, table, path):
    """An Excel or Arrow file as table "table" (and as its path, ./data/<file>), read by pandas."""
    import os
    import pandas as pd
    frame = pd.read_excel(path, sheet_name=0, engine="openpyxl") if path.lower().endswith(".xlsx") else pd.read_feather(path)
    db.register("_runpad_sql_frame", frame)
    try:
        db.execute(f"CREATE OR REPLACE TABLE {_runpad_sql_quote(table)} AS SELECT * FROM _runpad_sql_frame")
    finally:
        db.unregister("_runpad_sql_frame")
    db.execute(f"CREATE OR REPLACE VIEW {_runpad_sql_quote('./' + path.replace(os.sep, '/'))} AS SELECT * FROM {_runpad_sql_quote(table)}")
    # read_xlsx('./data/x.xlsx') as in Runpad, without DuckDB's excel extension: the path's table.
    db.execute("CREATE OR REPLACE TEMP MACRO read_xlsx(path, sheet := NULL, header := NULL, all_varchar := NULL, ignore_errors := NULL, range := NULL) AS TABLE SELECT * FROM query_table(path)")


def _runpad_sql_connect():
    import os, sys
    duckdb = _runpad_duckdb()
    db = duckdb.connect(":memory:")
    folder = "data"
    if not os.path.isdir(folder):
        return db
    files = [name for name in os.listdir(folder) if os.path.isfile(os.path.join(folder, name))]
    for file_name, table in _runpad_sql_table_names(files).items():
        extension = os.path.splitext(file_name)[1].lower()
        if extension in _RUNPAD_SQL_FRAMES:
            try:
                _runpad_sql_load_frame(db, table, os.path.join(folder, file_name))
            except ImportError as error:
                print(f"sql: ./data/{file_name} was not loaded: {error.name} is not installed (pip install {_RUNPAD_SQL_FRAMES[extension]}).", file=sys.stderr)
            except Exception as error:
                print(f"sql: ./data/{file_name} was not loaded: {error}", file=sys.stderr)
            continue
        if extension not in _RUNPAD_SQL_READERS:
            print(f"sql: ./data/{file_name} was not loaded: outside Runpad, SQL cells read CSV, TSV, JSON, Parquet, Excel and Arrow files.", file=sys.stderr)
            continue
        try:
            db.execute(f"CREATE TABLE {_runpad_sql_quote(table)} AS SELECT * FROM {_runpad_sql_source(os.path.join(folder, file_name))}")
        except duckdb.Error as error:
            print(f"sql: ./data/{file_name} was not loaded: {error}", file=sys.stderr)
    return db


def _runpad_sql_database():
    global _runpad_sql_db
    if _runpad_sql_db is None:
        _runpad_sql_db = _runpad_sql_connect()
    return _runpad_sql_db


def _runpad_sql_result(relation):
    if relation is None:
        return None
    try:
        return relation.df()
    except ImportError:  # no pandas
        return _RunpadSqlTable(relation.columns, relation.fetchall())


def sql(query):
    """Runs SQL in DuckDB (the SQL cells' database; ./data files are tables) and returns the last
    statement's result: a pandas DataFrame when pandas is installed, else a table with .columns and .rows."""
    return _runpad_sql_result(_runpad_sql_database().sql(query))


def sql_table(name, data):
    """Hands Python data to DuckDB as table name: a list of dicts, a pandas DataFrame, or the path
    of a CSV/TSV/JSON/Parquet file (read by DuckDB's own reader). Returns the name."""
    import os, re
    db = _runpad_sql_database()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)):
        raise ValueError(f"table name {name!r}: use letters, digits and _")
    if isinstance(data, str):
        if os.path.splitext(data)[1].lower() not in _RUNPAD_SQL_READERS:
            raise ValueError(f"{data}: not a file DuckDB reads (csv, tsv, json, jsonl, parquet)")
        db.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM {_runpad_sql_source(data)}")
        return name
    if hasattr(data, "to_dict") and hasattr(data, "columns"):
        data = data.to_dict(orient="records")
    rows = [dict(row) for row in data]
    if not rows:
        raise ValueError("no rows to make a table of")
    columns = list(dict.fromkeys(key for row in rows for key in row))
    values = ", ".join("(" + ", ".join("?" for _ in columns) + ")" for _ in rows)
    names = ", ".join(_runpad_sql_quote(column) for column in columns)
    parameters = [row.get(column) for row in rows for column in columns]
    db.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM (VALUES {values}) AS t({names})", parameters)
    return name


def _runpad_sql(query):
    """An SQL cell: runs the query's statements in order; shows the last one's result and binds it to _sql."""
    global _sql
    result = sql(query)
    if result is not None:
        _sql = result
    return result
`;
