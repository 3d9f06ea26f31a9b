"""SQL cells that share state with Python, like marimo's.

`run_sql(query, namespace, emit, caps)` runs one SQL cell in DuckDB (DuckDB-wasm on the worker's
thread, reached through `duckdb_bridge`), one database per interpreter, so tables and views
persist across runs. Every file in /data is a table named after it, read by DuckDB's own readers.
The last statement's result is shown as a table (the same data-resource JSON, caps and full shape
as a pandas table) and bound to `_sql` in the Python namespace, which `sql()` also reaches.

Outputs go to `emit(dict)` in the same nbformat shapes a Python run emits. `run_sql` never
raises; it returns the run's status, 'ok', 'error' or 'interrupted', as `Kernel.run` reports it.
"""

import datetime
import os
import re
import sys

from . import dataset_tables as _datasets
from . import duckdb_bridge as _bridge
from .caps import Caps, clip
from .errors import error_output
from .tables import _column_name, _field_type, _json_value, _unique

DATA_DIR = "/data"
TEXT_ROWS = 60
TEXT_COLUMNS = 20
TEXT_CELL_CHARS = 60
ERROR_TABLES = 200
ERROR_COLUMNS = 100


class _Interrupted(Exception):
    pass


# --- results ------------------------------------------------------------------------------------


class _Result:
    """What one statement produced: rows with column names, or a count of changed rows."""

    def __init__(self, columns=None, rows=None, frame=None, changed=None, kinds=None):
        self.columns = columns
        self.rows = rows
        self.frame = frame
        self.changed = changed
        self.kinds = kinds

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


def _plain_value(value):
    """Dates and timestamps as ISO text (JSON has neither)."""
    return value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else value


def _rows_table(names, rows, caps):
    """Rows (tuples) as data-resource JSON, for when pandas is not available."""
    shown_names = names[: caps.table_columns]
    shown = [row[: caps.table_columns] for row in rows[: caps.table_rows]]
    fields = [
        {"name": name, "type": _value_type([row[i] for row in shown])} for i, name in enumerate(shown_names)
    ]
    data = [{name: _json_value(_plain_value(value)) for name, value in zip(shown_names, row)} for row in shown]
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
    """The output bundle for a result with rows; binds `_sql` (a DataFrame, or a SqlTable
    without pandas: what `sql()` returns)."""
    pd = _pandas_module()
    if pd:
        frame = _as_python(result, result.kinds)
        namespace["_sql"] = frame
        table = _frame_table(frame, caps)
        head = list(frame.iloc[:TEXT_ROWS, :TEXT_COLUMNS].itertuples(index=False, name=None))
        text = _plain_text([_column_name(c) for c in frame.columns], head, len(frame))
    else:
        names = _unique([str(c) for c in result.columns])
        rows = result.rows
        namespace["_sql"] = SqlTable(names, rows)
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


# --- the engine ------------------------------------------------------------------------------

EXTENSION_OF = {"parquet": "parquet", "json": "json", "jsonl": "json", "xlsx": "excel"}
FORMAT_NAME = {"parquet": "Parquet", "json": "JSON", "jsonl": "JSON Lines", "xlsx": "Excel"}


def extension_notice(path, fmt, error, repository):
    """Why a file needing an extension is not a table, in words the user and the model can act on."""
    source = repository or "DuckDB's extension repository"
    return (
        f"{path} is not a table: {FORMAT_NAME[fmt]} files are read by DuckDB's {EXTENSION_OF[fmt]} extension, "
        f"which could not be loaded from {source} (this browser cannot reach it: offline, or the source "
        f"does not have it). CSV and TSV files always work; save the data as CSV to query it. "
        f"An administrator can self-host the extension with `npm run mirror -- duckdb {EXTENSION_OF[fmt]}`. ({error})"
    )


def _is_extension_error(error):
    text = str(error).lower()
    return "extension" in text


class DuckDBEngine:
    """DuckDB-wasm through the worker's bridge (duckdb_bridge): every file in /data is a table,
    read by DuckDB's own readers straight from the interpreter's file system."""

    name = "duckdb"

    def __init__(self):
        self.datasets = _datasets.DatasetTables()
        self.notices = []

    @property
    def version(self):
        return _bridge.version()

    @property
    def dialect_note(self):
        return duckdb_note(self.version)

    def close(self):
        pass

    # the dataset engine protocol (see dataset_tables.DatasetTables.sync)
    def object_names(self):
        result = _bridge.execute("SELECT table_name FROM information_schema.tables")
        return {str(name).lower() for (name,) in result.rows}

    def supports(self, fmt):
        return True

    def load(self, table, path, fmt):
        _bridge.register_file(path)
        name = _datasets.quote_identifier(table)
        # A file kept on the device (any size the disk holds) is a view: each query reads the
        # ranges it needs from the disk, never a copy in DuckDB's memory. An uploaded one is loaded.
        kind = "VIEW" if _datasets.kept_on_device(path) else "TABLE"
        if self._kind_of(table) not in (None, kind):
            self.drop(table)  # the file moved between the device and the account
        try:
            _bridge.execute(f"CREATE OR REPLACE {kind} {name} AS SELECT * FROM {_datasets.duckdb_source(path, fmt)}")
        except _bridge.DuckDBError as error:
            if fmt not in EXTENSION_OF or not _is_extension_error(error):
                raise
            if fmt in ("json", "jsonl"):
                # JSON without the extension: Python's json module reads it, Arrow hands it over.
                _bridge.insert_rows(table, _datasets.read_json_records(path, fmt))
                return
            raise _datasets.LoadError(extension_notice(path, fmt, error, _bridge.extension_repository())) from None

    def _kind_of(self, table):
        """'TABLE', 'VIEW' or None: what the name is in DuckDB now."""
        literal = _datasets.quote_literal(str(table))
        found = _bridge.execute(f"SELECT table_type FROM information_schema.tables WHERE table_name = {literal}").rows
        if not found:
            return None
        return "VIEW" if str(found[0][0]).upper() == "VIEW" else "TABLE"

    def drop(self, table):
        kind = self._kind_of(table)
        if kind is not None:
            _bridge.execute(f"DROP {kind} IF EXISTS {_datasets.quote_identifier(table)}")

    def prepare(self, data_dir, namespace):
        return self.datasets.sync(data_dir, self)

    def split(self, query):
        return split_statements(query, dollar_quotes=True)

    def start(self):
        pass

    def stop(self):
        pass

    def execute(self, statement):
        result = _bridge.execute(statement)
        if _first_keyword(statement) in ("SELECT", "WITH", "FROM", "VALUES", "PRAGMA", "DESCRIBE", "SHOW", "SUMMARIZE", "EXPLAIN", "TABLE", "CALL", "PIVOT", "UNPIVOT"):
            return _Result(columns=result.columns, rows=result.rows, kinds=result.kinds)
        if result.columns == ["Count"] and len(result.rows) == 1:
            return _Result(changed=result.rows[0][0])
        if not result.columns or (result.columns == ["Success"]):
            return _Result(changed=None)
        return _Result(columns=result.columns, rows=result.rows, kinds=result.kinds)

    def is_error(self, error):
        return isinstance(error, (_bridge.DuckDBError, _bridge.DuckDBUnavailable))

    def is_interrupt(self, error):
        return isinstance(error, KeyboardInterrupt)

    def describe_tables(self):
        rows = _bridge.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema NOT IN ('information_schema', 'pg_catalog') "
            "ORDER BY table_catalog, table_schema, table_name, ordinal_position"
        ).rows
        result = []
        for table, column, data_type in rows:
            if not result or result[-1][0] != table:
                result.append((table, []))
            result[-1][1].append((column, data_type))
        return result


def duckdb_note(version):
    return (
        f"DuckDB {version}: PostgreSQL-like SQL; date_trunc/strftime for dates, || for concatenation, "
        "QUALIFY, quantile_cont, window functions; read_csv('/data/…') also works"
    )


_engine = None


def _get_engine():
    global _engine
    if _engine is None:
        _bridge.bridge()  # fails with the reason when DuckDB did not start
        _engine = DuckDBEngine()
    return _engine


def reset():
    """Forgets the engine's bookkeeping: the next SQL run starts over (tests; a fresh interpreter)."""
    global _engine
    _engine = None


def sql_engine():
    """{name, version, dialect_note} of the engine SQL cells run in."""
    version = _bridge.version()
    return {"name": "duckdb", "version": version, "dialect_note": duckdb_note(version)}


# --- SQL from Python --------------------------------------------------------------------------


class SqlTable:
    """A query's result without pandas: `columns`, `rows` (tuples); iterating gives dicts."""

    def __init__(self, columns, rows):
        self.columns = list(columns)
        self.rows = list(rows)

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return (dict(zip(self.columns, row)) for row in self.rows)

    def __getitem__(self, index):
        if isinstance(index, str):
            i = self.columns.index(index)
            return [row[i] for row in self.rows]
        return dict(zip(self.columns, self.rows[index]))

    def __eq__(self, other):
        return isinstance(other, SqlTable) and other.columns == self.columns and other.rows == self.rows

    def __repr__(self):
        return _plain_text(self.columns, self.rows[:TEXT_ROWS], len(self.rows))

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": repr(self)}


def _as_python(result, kinds=None):
    """A DataFrame when pandas is loaded, else a SqlTable."""
    pd = _pandas_module()
    names = _unique([str(c) for c in result.columns])
    if pd:
        frame = pd.DataFrame.from_records(result.rows, columns=names)
        for name, kind in zip(names, kinds or []):
            if kind in ("date", "datetime"):
                frame[name] = pd.to_datetime(frame[name])
        return frame
    return SqlTable(names, result.rows)


def sql(query, data_dir=DATA_DIR):
    """Runs SQL in DuckDB (the same database as SQL cells; /data files are tables) and returns the
    last statement's result: a pandas DataFrame when pandas is loaded, else a SqlTable."""
    engine = _get_engine()
    notices = engine.prepare(data_dir, None)
    for notice in notices:
        print(f"[runpad] {notice}", file=sys.stderr)
    result = None
    for statement in engine.split(query):
        result = engine.execute(statement)
    if result is None or not result.has_rows:
        return None
    return _as_python(result, result.kinds)


def sql_table(name, data):
    """Hands Python data to DuckDB as table `name`: a list of dicts, a pandas DataFrame, or the path
    of a CSV/TSV/JSON file Python wrote (read by DuckDB's own reader). Returns the name."""
    engine = _get_engine()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)):
        raise ValueError(f"table name {name!r}: use letters, digits and _")
    if isinstance(data, str):
        fmt = _datasets.FORMATS.get(os.path.splitext(data)[1].lower())
        if fmt is None:
            raise ValueError(f"{data}: not a file DuckDB reads (csv, tsv, json, jsonl, parquet, xlsx)")
        engine.load(name, os.path.abspath(data), fmt)
        return name
    if hasattr(data, "to_dict") and hasattr(data, "columns"):
        data = data.to_dict(orient="records")
    rows = [dict(row) for row in data]
    if not rows:
        raise ValueError("no rows to make a table of")
    _bridge.insert_rows(name, rows)
    return name


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
