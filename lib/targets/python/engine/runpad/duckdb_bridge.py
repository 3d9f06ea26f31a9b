"""DuckDB as Python sees it: the bridge the worker hands over (lib/targets/sql/engine/bridge.ts), or why
DuckDB could not start.

The bridge runs DuckDB-wasm on the worker's own thread, so every call here is synchronous. A
statement runs as a pending query polled in slices: between slices the interpreter checks its
interrupt flag, so Stop raises KeyboardInterrupt here and the query is cancelled, leaving the
database as it was before the statement.
"""

import datetime
import json

_bridge = None
_start_error = None


class DuckDBUnavailable(RuntimeError):
    """DuckDB did not start (its files could not be fetched, or it failed to load)."""


class DuckDBError(Exception):
    """An error DuckDB reported for a statement (its own message, e.g. a Binder Error)."""


def set_bridge(bridge):
    global _bridge, _start_error
    _bridge = bridge
    _start_error = None


def set_start_error(message):
    global _start_error
    _start_error = str(message)


def reset():
    """Forgets the bridge (tests)."""
    global _bridge, _start_error
    _bridge = None
    _start_error = None


def bridge():
    if _bridge is None:
        reason = f": {_start_error}" if _start_error else ""
        raise DuckDBUnavailable(f"DuckDB, the SQL engine, could not start{reason}")
    return _bridge


def version():
    return str(bridge().version) if _bridge is not None else "not started"


class QueryResult:
    """One statement's result: column names, DuckDB's types, rows as tuples of Python values."""

    def __init__(self, columns, kinds, types, rows):
        self.columns = columns
        self.kinds = kinds
        self.types = types
        self.rows = rows


def _converter(kind):
    if kind == "number":
        return float  # a whole DOUBLE arrives as 140 in JSON
    if kind == "date":
        return datetime.date.fromisoformat
    if kind == "datetime":
        return lambda text: datetime.datetime.fromisoformat(text.replace("Z", ""))
    return None


def parse_result(text):
    data = json.loads(text)
    converters = [_converter(kind) for kind in data["kinds"]]
    rows = []
    for row in data["rows"]:
        rows.append(
            tuple(value if value is None or convert is None else convert(value) for convert, value in zip(converters, row))
        )
    return QueryResult(list(data["columns"]), list(data["kinds"]), list(data["types"]), rows)


def _call(method, *args):
    try:
        return method(*args)
    except Exception as error:  # a JsException: DuckDB's own message
        message = str(error)
        for prefix in ("Error: ", "JsException: Error: "):
            if message.startswith(prefix):
                message = message[len(prefix):]
        raise DuckDBError(message) from None


def _text(value):
    """The result JSON, or None while the query is pending (JavaScript's null is not None in Pyodide)."""
    return value if isinstance(value, str) else None


def execute(statement):
    """Runs one statement to the end; KeyboardInterrupt (Stop, the time limit) cancels it."""
    engine = bridge()
    text = _text(_call(engine.start, statement))
    try:
        while text is None:
            text = _text(_call(engine.poll))
    except KeyboardInterrupt:
        try:
            engine.cancel()
        finally:
            raise
    return parse_result(text)


def register_file(path):
    """Makes `path` (a file of the interpreter's file system) readable by DuckDB, without copying it."""
    return bool(_call(bridge().registerFile, path))


def drop_file(path):
    _call(bridge().dropFile, path)


def insert_rows(table, rows, scratch_dir="/tmp"):
    """A list of dicts becomes table `table` (replacing it): written as CSV to the interpreter's
    file system and read by DuckDB's CSV reader (always available; its sniffer types the columns)."""
    import csv
    import os

    columns = list(dict.fromkeys(key for row in rows for key in row))
    path = os.path.join(scratch_dir, f"runpad_sql_{table}.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    register_file(path)
    quoted = '"' + str(table).replace('"', '""') + '"'
    literal = "'" + path.replace("'", "''") + "'"
    execute(f"CREATE OR REPLACE TABLE {quoted} AS SELECT * FROM read_csv({literal})")


def started():
    """True once the worker has handed over the bridge."""
    return _bridge is not None


async def import_file(path, fmt):
    """Reads a Parquet, JSON or Excel file with the kept JavaScript readers into the table named by
    its path (lib/targets/sql/engine/offline-tables.ts); {"ok": True, "rows": n} or {"ok": False, "message"}."""
    return json.loads(str(await bridge().importFile(path, fmt)))


async def load_extension(name):
    """Loads DuckDB's extension `name` when its file is at the source (lib/targets/sql/engine/bridge.ts):
    {"loaded": bool, "reason": str or None, "restarted": bool}."""
    return json.loads(str(await bridge().loadExtension(name)))


def extension_repository():
    return str(bridge().extensionRepository) if _bridge is not None else ""
