"""SQL cells that share state with Python, like marimo's.

`run_sql(query, namespace, emit, caps)` runs one SQL cell in the interpreter's SQL engine
(DuckDB when `import duckdb` works, else the standard library's sqlite3 in memory), created
once per interpreter, so tables and views persist across runs. Every file in /data is a table
named after it. The last statement's result is shown as a table (the same data-resource JSON,
caps and full shape as a pandas table) and bound to `_sql` in the Python namespace.

Outputs go to `emit(dict)` in the same nbformat shapes a Python run emits. `run_sql` never
raises; it returns the run's status, 'ok', 'error' or 'interrupted', as `Kernel.run` reports it.
"""

import re
import sqlite3
import sys

from . import dataset_tables as _datasets
from .caps import Caps, clip
from .errors import error_output
from .tables import _column_name, _field_type, _json_value, _unique

DATA_DIR = "/data"
#: SQLite virtual-machine instructions between two interrupt checks.
PROGRESS_STEPS = 10_000
TEXT_ROWS = 60
TEXT_COLUMNS = 20
TEXT_CELL_CHARS = 60
ERROR_TABLES = 200
ERROR_COLUMNS = 100


def _check_interrupt():
    """Called by SQLite's progress handler while a query runs; raises KeyboardInterrupt to stop it.

    Pyodide delivers the interrupt buffer's SIGINT at the interpreter's periodic checks, which run
    in any Python code, including this function's frame: the handler is what gives the browser's
    interrupt a chance to land during a long query (SQLite's own loop runs no Python). Under
    CPython a Ctrl-C arrives the same way. Tests replace this function to simulate an interrupt.
    """


class _Interrupted(Exception):
    pass


# --- results ------------------------------------------------------------------------------------


class _Result:
    """What one statement produced: rows with column names, or a count of changed rows."""

    def __init__(self, columns=None, rows=None, frame=None, changed=None):
        self.columns = columns
        self.rows = rows
        self.frame = frame
        self.changed = changed

    @property
    def has_rows(self):
        return self.columns is not None


_pandas = None


def _pandas_module():
    """pandas if importable (imported once), else False."""
    global _pandas
    if _pandas is None:
        try:
            import pandas

            _pandas = pandas
        except ImportError:
            _pandas = False
    return _pandas


def _frame_table(frame, caps):
    """A DataFrame as data-resource JSON without its (meaningless) row index."""
    rows, columns = frame.shape
    shown = frame.iloc[: caps.table_rows, : caps.table_columns]
    names = _unique([_column_name(c) for c in shown.columns])
    fields = [{"name": name, "type": _field_type(dtype)} for name, dtype in zip(names, shown.dtypes)]
    data = [
        {name: _json_value(value) for name, value in zip(names, values)}
        for values in shown.itertuples(index=False, name=None)
    ]
    return {"schema": {"fields": fields, "primaryKey": []}, "data": data, "shape": [int(rows), int(columns)]}


def _value_type(values):
    kinds = {type(v) for v in values if v is not None}
    if not kinds:
        return "any"
    if kinds <= {bool}:
        return "boolean"
    if kinds <= {int}:
        return "integer"
    if kinds <= {int, float}:
        return "number"
    if kinds <= {str}:
        return "string"
    return "any"


def _rows_table(names, rows, caps):
    """Rows (tuples) as data-resource JSON, for when pandas is not available."""
    shown_names = names[: caps.table_columns]
    shown = [row[: caps.table_columns] for row in rows[: caps.table_rows]]
    fields = [
        {"name": name, "type": _value_type([row[i] for row in shown])} for i, name in enumerate(shown_names)
    ]
    data = [{name: _json_value(value) for name, value in zip(shown_names, row)} for row in shown]
    return {"schema": {"fields": fields, "primaryKey": []}, "data": data, "shape": [len(rows), len(names)]}


def _cell_text(value):
    if value is None or (isinstance(value, float) and value != value):
        return "NULL"
    text = str(value).replace("\n", " ")
    return text if len(text) <= TEXT_CELL_CHARS else text[: TEXT_CELL_CHARS - 1] + "…"


def _plain_text(names, head, total_rows):
    """A fixed-width text table: the first TEXT_ROWS rows and TEXT_COLUMNS columns, then the size."""
    shown_names = names[:TEXT_COLUMNS]
    cells = [[_cell_text(v) for v in row[:TEXT_COLUMNS]] for row in head[:TEXT_ROWS]]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(shown_names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(shown_names, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    if total_rows > TEXT_ROWS or len(names) > TEXT_COLUMNS:
        lines.append("…")
    lines.append(f"[{total_rows:,} rows x {len(names):,} columns]")
    return "\n".join(lines)


def _show(result, namespace, caps):
    """The output bundle for a result with rows; binds `_sql` (a DataFrame, or a list of dicts
    without pandas)."""
    pd = _pandas_module()
    if pd:
        frame = result.frame
        if frame is None:
            names = _unique([str(c) for c in result.columns])
            frame = pd.DataFrame.from_records(result.rows, columns=names)
        namespace["_sql"] = frame
        table = _frame_table(frame, caps)
        head = list(frame.iloc[:TEXT_ROWS, :TEXT_COLUMNS].itertuples(index=False, name=None))
        text = _plain_text([_column_name(c) for c in frame.columns], head, len(frame))
    else:
        names = _unique([str(c) for c in result.columns])
        rows = result.rows
        namespace["_sql"] = [dict(zip(names, row)) for row in rows]
        table = _rows_table(names, rows, caps)
        text = _plain_text(names, rows, len(rows))
    return {"application/vnd.dataresource+json": table, "text/plain": clip(text, caps.text_chars)}


def _changed_text(changed):
    if changed is None or changed < 0:
        return "OK"
    return f"OK, {changed:,} row{'' if changed == 1 else 's'} affected"


# --- statements ---------------------------------------------------------------------------------

_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")


def split_statements(text, complete=None, brackets=False, dollar_quotes=False):
    """The statements of a script, in order, without empty ones (only whitespace or comments).

    Semicolons inside quotes ('…', "…", `…`, […] with brackets,
    $tag$…$tag$ with dollar_quotes) and comments (-- …, /* … */) do not end a statement. When
    `complete` is given (sqlite3.complete_statement), a semicolon ends a statement only if the
    text so far is complete, so a trigger's BEGIN … END body stays whole.
    """
    statements = []
    start = 0
    has_code = False
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char in "'\"`" or (brackets and char == "["):
            close = "]" if char == "[" else char
            i += 1
            while i < n:
                if text[i] == close:
                    if close != "]" and i + 1 < n and text[i + 1] == close:
                        i += 2
                        continue
                    break
                i += 1
            has_code = True
        elif char == "-" and text.startswith("--", i):
            end = text.find("\n", i)
            i = n - 1 if end < 0 else end
        elif char == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n - 1 if end < 0 else end + 1
        elif char == "$" and dollar_quotes and _DOLLAR.match(text, i):
            tag = _DOLLAR.match(text, i).group(0)
            end = text.find(tag, i + len(tag))
            i = n - 1 if end < 0 else end + len(tag) - 1
            has_code = True
        elif char == ";":
            if complete is None or complete(text[start : i + 1]):
                if has_code:
                    statements.append(text[start : i + 1].strip())
                start = i + 1
                has_code = False
        elif not char.isspace():
            has_code = True
        i += 1
    if has_code:
        statements.append(text[start:].strip())
    return statements


def _first_keyword(statement):
    code = re.sub(r"--[^\n]*|/\*.*?\*/", " ", statement, flags=re.S).lstrip(" \t\r\n(")
    match = re.match(r"[A-Za-z]+", code)
    return match.group(0).upper() if match else ""


def _snippet(statement, limit=200):
    one_line = " ".join(statement.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


# --- engines ---------------------------------------------------------------------------------


def sqlite_note(version):
    return f"SQLite {version}: use strftime for dates, || for concatenation, no FULL OUTER JOIN before 3.39"


def duckdb_note(version):
    return (
        f"DuckDB {version}: PostgreSQL-like SQL; strftime/date_trunc for dates, || for concatenation; "
        "pandas DataFrames are tables by variable name; read_csv/read_parquet('/data/…') also work"
    )


# --- engine classes ------------------------------------------------------------------------


class SqliteEngine:
    name = "sqlite"

    def __init__(self):
        # Autocommit: every statement commits unless the user opens a transaction (BEGIN).
        self.con = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.datasets = _datasets.DatasetTables()
        self._interrupted = False

    @property
    def version(self):
        return sqlite3.sqlite_version

    @property
    def dialect_note(self):
        return sqlite_note(self.version)

    def close(self):
        self.con.close()

    # the dataset engine protocol (see dataset_tables.DatasetTables.sync)
    def object_names(self):
        rows = self.con.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
            "UNION SELECT name FROM sqlite_temp_master WHERE type IN ('table', 'view')"
        ).fetchall()
        return {name.lower() for (name,) in rows}

    def supports(self, fmt):
        return fmt != "parquet"

    def load(self, table, path, fmt):
        _datasets.load_sqlite(self.con, table, path, fmt)

    def drop(self, table):
        self.con.execute(f"DROP TABLE IF EXISTS {_datasets.quote_identifier(table)}")

    def prepare(self, data_dir, namespace):
        return self.datasets.sync(data_dir, self)

    def split(self, query):
        return split_statements(query, complete=sqlite3.complete_statement, brackets=True)

    def _progress(self):
        try:
            _check_interrupt()
        except KeyboardInterrupt:
            self._interrupted = True
            return 1
        return 0

    def start(self):
        self._interrupted = False
        self.con.set_progress_handler(self._progress, PROGRESS_STEPS)

    def stop(self):
        self.con.set_progress_handler(None, 0)

    def execute(self, statement):
        cursor = self.con.execute(statement)
        try:
            if cursor.description is None:
                return _Result(changed=cursor.rowcount)
            columns = [d[0] for d in cursor.description]
            return _Result(columns=columns, rows=cursor.fetchall())
        finally:
            cursor.close()

    def is_error(self, error):
        return isinstance(error, sqlite3.Error)

    def is_interrupt(self, error):
        # SQLITE_INTERRUPT comes only from our progress handler stopping the query, also when the
        # interpreter raised KeyboardInterrupt in the handler before its own `try` (sqlite3 then
        # swallows the exception and aborts the query).
        if not isinstance(error, sqlite3.OperationalError):
            return False
        code = getattr(error, "sqlite_errorcode", None)
        return self._interrupted or code == getattr(sqlite3, "SQLITE_INTERRUPT", 9) or str(error) == "interrupted"

    def describe_tables(self):
        """[(name, [(column, type)])] for every table and view."""
        result = []
        for schema, master in (("main", "sqlite_master"), ("temp", "sqlite_temp_master")):
            names = self.con.execute(
                f"SELECT name FROM {master} WHERE type IN ('table', 'view') "
                "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
            ).fetchall()
            for (name,) in names:
                info = self.con.execute(f"PRAGMA {schema}.table_info({_datasets.quote_identifier(name)})").fetchall()
                result.append((name, [(row[1], row[2] or "") for row in info]))
        return result


class DuckDBEngine:
    """DuckDB: files are views over read_csv_auto / read_json_auto / read_parquet, and the
    namespace's pandas DataFrames are registered under their variable names."""

    name = "duckdb"
    _NO_RESULT = {
        "CREATE", "DROP", "ALTER", "TRANSACTION", "SET", "VARIABLE_SET", "LOAD", "ATTACH", "DETACH",
        "VACUUM", "EXPORT", "PREPARE", "CREATE_FUNC", "COPY_DATABASE", "BEGIN", "COMMIT", "ROLLBACK",
        "INSTALL", "USE", "CHECKPOINT", "RESET",
    }

    def __init__(self, duckdb):
        self.duckdb = duckdb
        self.con = duckdb.connect(":memory:")
        # Only what we register is visible (no lookups in the Python frames of this module), and
        # no progress bar printed to stdout.
        for setting in ("SET python_enable_replacements = false", "SET enable_progress_bar = false"):
            try:
                self.con.execute(setting)
            except duckdb.Error:
                pass
        self.datasets = _datasets.DatasetTables()
        self.registered = set()

    @property
    def version(self):
        return getattr(self.duckdb, "__version__", "unknown")

    @property
    def dialect_note(self):
        return duckdb_note(self.version)

    def close(self):
        self.con.close()

    def object_names(self):
        rows = self.con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        frames = {name.lower() for name in self.registered}  # re-registered each run, not owners of a name
        return {name.lower() for (name,) in rows} - frames

    def supports(self, fmt):
        return True

    def load(self, table, path, fmt):
        self.con.execute(
            f"CREATE OR REPLACE VIEW {_datasets.quote_identifier(table)} AS SELECT * FROM {_datasets.duckdb_source(path, fmt)}"
        )

    def drop(self, table):
        self.con.execute(f"DROP VIEW IF EXISTS {_datasets.quote_identifier(table)}")

    def prepare(self, data_dir, namespace):
        notices = self.datasets.sync(data_dir, self)
        self._register_frames(namespace)
        return notices

    def _register_frames(self, namespace):
        pd = sys.modules.get("pandas")  # only if the user's code already has pandas
        frames = {}
        if pd is not None:
            datasets = self.datasets.tables()
            for name, value in list(namespace.items()):
                if (
                    isinstance(value, pd.DataFrame)
                    and name.isidentifier()
                    and not name.startswith("__")
                    and name.lower() not in datasets
                ):
                    frames[name] = value
        for name in self.registered - set(frames):
            try:
                self.con.unregister(name)
            except self.duckdb.Error:
                pass
        registered = set()
        for name, frame in frames.items():
            try:
                self.con.register(name, frame)
            except (self.duckdb.Error, TypeError, ValueError):
                continue  # a frame DuckDB cannot scan stays Python-only
            registered.add(name)
        self.registered = registered

    def split(self, query):
        extract = getattr(self.con, "extract_statements", None)
        if extract is not None:
            return list(extract(query))
        return split_statements(query, dollar_quotes=True)

    def start(self):
        pass

    def stop(self):
        pass

    def _kind(self, statement):
        kind = getattr(statement, "type", None)
        if kind is not None:
            return getattr(kind, "name", str(kind).rsplit(".", 1)[-1]).upper()
        return _first_keyword(str(statement))

    def execute(self, statement):
        kind = self._kind(statement)
        self.con.execute(statement)
        description = self.con.description
        if not description:
            return _Result(changed=None)
        columns = [d[0] for d in description]
        if kind in self._NO_RESULT:
            return _Result(changed=None)
        queries = ("SELECT", "PRAGMA", "EXPLAIN", "CALL", "EXECUTE", "WITH")
        if kind not in queries and [c.lower() for c in columns] == ["count"]:  # INSERT, UPDATE, DELETE, COPY
            row = self.con.fetchone()
            return _Result(changed=int(row[0]) if row and row[0] is not None else None)
        pd = _pandas_module()
        if pd:
            return _Result(columns=columns, frame=self.con.df())
        return _Result(columns=columns, rows=self.con.fetchall())

    def is_error(self, error):
        return isinstance(error, self.duckdb.Error) or (isinstance(error, RuntimeError) and "interrupted" in str(error))

    def is_interrupt(self, error):
        # DuckDB's Python client checks for signals while a query runs and then raises
        # "Query interrupted" (or InterruptException when a query is cancelled).
        interrupt = getattr(self.duckdb, "InterruptException", ())
        return (interrupt and isinstance(error, interrupt)) or "Query interrupted" in str(error)

    def describe_tables(self):
        rows = self.con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema NOT IN ('information_schema', 'pg_catalog') "
            "ORDER BY table_catalog, table_schema, table_name, ordinal_position"
        ).fetchall()
        result = []
        for table, column, data_type in rows:
            if not result or result[-1][0] != table:
                result.append((table, []))
            result[-1][1].append((column, data_type))
        return result


_engine = None


def _duckdb():
    try:
        import duckdb
    except ImportError:
        return None
    return duckdb


def _get_engine():
    global _engine
    if _engine is None:
        duckdb = _duckdb()
        _engine = DuckDBEngine(duckdb) if duckdb is not None else SqliteEngine()
    return _engine


def reset():
    """Closes the engine: the next SQL run starts an empty database (tests; a fresh interpreter)."""
    global _engine
    if _engine is not None:
        try:
            _engine.close()
        finally:
            _engine = None


def sql_engine():
    """{name, version, dialect_note} of the engine SQL cells run in (the one in use, or the one
    the first SQL run will create)."""
    if _engine is not None:
        return {"name": _engine.name, "version": _engine.version, "dialect_note": _engine.dialect_note}
    duckdb = _duckdb()
    if duckdb is not None:
        version = getattr(duckdb, "__version__", "unknown")
        return {"name": "duckdb", "version": version, "dialect_note": duckdb_note(version)}
    version = sqlite3.sqlite_version
    return {"name": "sqlite", "version": version, "dialect_note": sqlite_note(version)}


# --- a run --------------------------------------------------------------------------------------


def _identifier(name):
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else _datasets.quote_identifier(name)


def _table_lines(engine, caps):
    try:
        tables = engine.describe_tables()
    except Exception as error:  # noqa: BLE001 - the listing is a help, not the point
        return [f"Tables: (could not be listed: {error})"]
    if not tables:
        return ["Tables: none (no files in /data and none created)"]
    lines = ["Tables:"]
    for name, columns in tables[:ERROR_TABLES]:
        shown = ", ".join(f"{_identifier(c)} {t}".rstrip() for c, t in columns[:ERROR_COLUMNS])
        if len(columns) > ERROR_COLUMNS:
            shown += f", … {len(columns) - ERROR_COLUMNS:,} more"
        lines.append(clip(f"  {_identifier(name)}({shown})", caps.text_chars))
    if len(tables) > ERROR_TABLES:
        lines.append(f"  … and {len(tables) - ERROR_TABLES:,} more")
    return lines


def _sql_error(engine, error, index, statements, caps):
    ename = type(error).__name__
    evalue = clip(str(error), caps.text_chars)
    lines = [clip(f"{ename}: {error}", caps.text_chars)]
    if len(statements) > 1:
        text = getattr(statements[index], "query", statements[index])
        lines.append(clip(f"in statement {index + 1} of {len(statements)}: {_snippet(str(text))}", caps.text_chars))
    lines += _table_lines(engine, caps)
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": lines}


def _as_caps(caps):
    return caps if isinstance(caps, Caps) else Caps.from_dict(caps)


def run_sql(query, namespace, emit, caps, data_dir=DATA_DIR):
    """Runs a SQL cell; returns its status: 'ok', 'error' or 'interrupted'.

    Emits, in order: a stderr notice per data file that could not become a table, then either the
    last statement's result (`execute_result`: a table, or "OK, n rows affected" for a statement
    without a result set) or one `error` output (the engine's message and the tables with their
    columns, or KeyboardInterrupt when interrupted). Statements before a failing one stay done.
    """
    caps = _as_caps(caps)
    engine = None
    try:
        engine = _get_engine()
        notices = engine.prepare(data_dir, namespace)
        if notices:
            text = "".join(f"[runpad] {notice}\n" for notice in notices)
            emit({"output_type": "stream", "name": "stderr", "text": clip(text, caps.stream_chars)})
        statements = engine.split(query)
        result = None
        engine.start()
        try:
            for index, statement in enumerate(statements):
                try:
                    result = engine.execute(statement)
                except Exception as error:  # noqa: BLE001 - narrowed just below
                    if engine.is_interrupt(error):
                        raise _Interrupted() from None
                    if not engine.is_error(error):
                        raise
                    emit(_sql_error(engine, error, index, statements, caps))
                    return "error"
        finally:
            engine.stop()
        if result is None:
            return "ok"
        bundle = _show(result, namespace, caps) if result.has_rows else {"text/plain": _changed_text(result.changed)}
        emit({"output_type": "execute_result", "data": bundle})
        return "ok"
    except (KeyboardInterrupt, _Interrupted):
        emit(error_output(KeyboardInterrupt()))
        return "interrupted"
    except BaseException as error:  # noqa: BLE001 - like Kernel.run, every failure is an output
        if engine is not None and isinstance(error, Exception) and engine.is_interrupt(error):
            emit(error_output(KeyboardInterrupt()))  # e.g. while DuckDB read a file for a view
            return "interrupted"
        emit(error_output(error))
        return "error"
