"""SQL cells that share state with Python, like marimo's.

`run_sql(query, namespace, emit, caps)` runs one SQL cell in DuckDB (DuckDB-wasm on the worker's
thread, reached through `duckdb_bridge`), one database per interpreter, so tables and views
persist across runs. Every file in /data is a table named after it, read by DuckDB's own readers.
The last statement's result is shown as a table (the same data-resource JSON, caps and full shape
as a pandas table) and bound to `_sql` in the Python namespace, which `sql()` also reaches.

Outputs go to `emit(dict)` in the same nbformat shapes a Python run emits. `run_sql` never
raises; it returns the run's status, 'ok', 'error' or 'interrupted', as `Kernel.run` reports it.
"""

import os
import re
import sys

from . import dataset_tables as _datasets
from . import duckdb_bridge as _bridge
from .caps import Caps, clip
from .errors import error_output
from .sql_engine import DATA_DIR, _get_engine, files_to_read, mentions_sql, read_files, reset, sql_engine  # noqa: F401 - the kernel's entry points
from .sql_results import SqlTable, _as_python, _changed_text, _show  # noqa: F401 - SqlTable: what sql() returns without pandas
from .sql_statements import _snippet

ERROR_TABLES = 200
ERROR_COLUMNS = 100


class _Interrupted(Exception):
    pass


# --- SQL from Python --------------------------------------------------------------------------


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
            raise ValueError(f"{data}: not a file DuckDB reads (csv, tsv, json, jsonl, parquet, xlsx, arrow, feather)")
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
    failed = [
        clip(f"  {name}: {why}", caps.text_chars) for name, why in engine.datasets.failed()[:ERROR_TABLES]
    ] if hasattr(engine, "datasets") else []
    failed_lines = ["Files in /data that are not tables:", *failed] if failed else []
    try:
        tables = engine.describe_tables()
    except Exception as error:  # noqa: BLE001 - the listing is a help, not the point
        return [f"Tables: (could not be listed: {error})", *failed_lines]
    if not tables:
        return ["Tables: none (no files in /data and none created)" if not failed else "Tables: none", *failed_lines]
    lines = ["Tables:"]
    for name, columns in tables[:ERROR_TABLES]:
        shown = ", ".join(f"{_identifier(c)} {t}".rstrip() for c, t in columns[:ERROR_COLUMNS])
        if len(columns) > ERROR_COLUMNS:
            shown += f", … {len(columns) - ERROR_COLUMNS:,} more"
        lines.append(clip(f"  {_identifier(name)}({shown})", caps.text_chars))
    if len(tables) > ERROR_TABLES:
        lines.append(f"  … and {len(tables) - ERROR_TABLES:,} more")
    return lines + failed_lines


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
