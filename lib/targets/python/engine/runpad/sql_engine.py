"""The engine SQL cells run in: DuckDB-wasm through the worker's bridge (duckdb_bridge), one
database per interpreter, every file in /data a table read by DuckDB's own readers (runpad.sql)."""

import os
import re

from . import dataset_tables as _datasets
from . import duckdb_bridge as _bridge
from .sql_results import _Result
from .sql_statements import _first_keyword, split_statements

DATA_DIR = "/data"


EXTENSION_OF = {"parquet": "parquet", "json": "json", "jsonl": "json", "xlsx": "excel"}
FORMAT_NAME = {"parquet": "Parquet", "json": "JSON", "jsonl": "JSON Lines", "xlsx": "Excel", "arrow": "Arrow IPC"}
# Formats DuckDB-wasm has no extension for: always read by the kept readers (offline-tables.ts).
KEPT_READER_ONLY = {"arrow"}
_SQL_CALL = re.compile(r"\bsql(_table)?\s*\(")
# read_xlsx(path, sheet = 'Costs'): DuckDB's excel extension takes its options with `=`; the kept
# reader's stand-in (a table macro, lib/targets/sql/engine/offline-tables.ts) takes named options with `:=`
# only, and would read `sheet = 'Costs'` as a comparison in the place of its first option.
_XLSX_SHEET_OPTION = re.compile(r"(\bread_xlsx\s*\([^()]*?\bsheet)\s*=(?!=)", re.IGNORECASE)


def extension_notice(path, fmt, error, repository):
    """Why a file needing an extension is not a table (it was not read by the kept readers either:
    e.g. a file given to sql_table outside /data), in words the user and the model can act on."""
    source = repository or "DuckDB's extension repository"
    return (
        f"{path} is not a table: {FORMAT_NAME[fmt]} files are read by DuckDB's {EXTENSION_OF[fmt]} extension, "
        f"which could not be loaded from {source} (this browser cannot reach it: offline, or the source "
        f"does not have it), and only files in /data are read without it. Copy the file into /data/ and query it there. "
        f"An administrator can self-host the extension with `npm run mirror -- duckdb {EXTENSION_OF[fmt]}`. ({error})"
    )


def mentions_sql(code):
    """Python code that calls sql() or sql_table(): its run reads the /data files first."""
    return bool(_SQL_CALL.search(code))


class DuckDBEngine:
    """DuckDB-wasm through the worker's bridge (duckdb_bridge): every file in /data is a table,
    read by DuckDB's own readers straight from the interpreter's file system."""

    name = "duckdb"

    def __init__(self):
        self.datasets = _datasets.DatasetTables()
        self.notices = []
        self.extensions = {}  # extension name -> whether it loads
        self.imported = {}  # path -> (signature, the reader's message when it failed, else None)
        self.views = {}  # dataset table -> the path of the table the kept reader made

    # Parquet, JSON and Excel without their extension, and Arrow IPC: the kept readers (offline-tables.ts)
    def extension_loads(self, fmt):
        """Whether DuckDB's extension for fmt is loaded (decided by read_files, once per interpreter;
        until then, and for a format with no extension, the kept reader reads it)."""
        return self.extensions.get(EXTENSION_OF.get(fmt)) is True

    def unread_files(self, data_dir):
        """[(path, fmt, signature)] of the files that read_files must look at before SQL sees them."""
        pending = []
        for path, fmt, signature in sorted(_datasets.scan(data_dir).values()):
            if fmt not in EXTENSION_OF and fmt not in KEPT_READER_ONLY:
                continue
            if self.extension_loads(fmt):
                continue
            if self.imported.get(path, (None, None))[0] != signature:
                pending.append((path, fmt, signature))
        return pending

    async def _decide_extension(self, fmt):
        """Loads DuckDB's extension for fmt when its file is at the source (the bridge checks first:
        DuckDB never fetches one on its own); else the kept readers read the format."""
        extension = EXTENSION_OF.get(fmt)
        if extension is None or extension in self.extensions:
            return
        answer = await _bridge.load_extension(extension)
        self.extensions[extension] = bool(answer["loaded"])
        if answer.get("restarted"):
            # The failed load broke the engine and the bridge started a fresh one: every table is gone.
            self.datasets = _datasets.DatasetTables()
            self.imported = {}
            self.views = {}

    async def read_files(self, data_dir):
        for path, fmt, signature in self.unread_files(data_dir):
            await self._decide_extension(fmt)
            if self.extension_loads(fmt):
                continue
            try:
                answer = await _bridge.import_file(path, fmt)
            except Exception as error:  # the JavaScript side failed (a JsException): said as the file's notice
                answer = {"ok": False, "message": f"{path} could not be read: {type(error).__name__}: {error}"}
            self.imported[path] = (signature, None if answer["ok"] else answer["message"])

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
        name = _datasets.quote_identifier(table)
        if fmt in KEPT_READER_ONLY or (fmt in EXTENSION_OF and not self.extension_loads(fmt)):
            # The kept reader made the table named by the path (read_files); the dataset's name is a view of it.
            signature, failure = self.imported.get(path, (None, None))
            if failure:
                raise _datasets.LoadError(failure)
            if signature is None:
                if fmt in KEPT_READER_ONLY:
                    raise _datasets.LoadError(f"{path} was not read: {FORMAT_NAME[fmt]} files are read in /data only")
                raise _datasets.LoadError(extension_notice(path, fmt, "not read", _bridge.extension_repository()))
            self.drop(table)
            _bridge.execute(f"CREATE VIEW {name} AS SELECT * FROM {_datasets.quote_identifier(path)}")
            self.views[table] = path
            return
        # A file kept on the device (any size the disk holds) is a view: each query reads the
        # ranges it needs from the disk, never a copy in DuckDB's memory. An uploaded one is loaded.
        kind = "VIEW" if _datasets.kept_on_device(path) else "TABLE"
        if table in self.views or self._kind_of(table) not in (None, kind):
            self.drop(table)  # the file moved between the device and the account, or was read by a kept reader
        _bridge.register_file(path)
        _bridge.execute(f"CREATE OR REPLACE {kind} {name} AS SELECT * FROM {_datasets.duckdb_source(path, fmt)}")

    def _kind_of(self, table):
        """'TABLE', 'VIEW' or None: what the name is in DuckDB now."""
        literal = _datasets.quote_literal(str(table))
        found = _bridge.execute(f"SELECT table_type FROM information_schema.tables WHERE table_name = {literal}").rows
        if not found:
            return None
        return "VIEW" if str(found[0][0]).upper() == "VIEW" else "TABLE"

    def drop(self, table):
        path = self.views.pop(table, None)
        if path is None:
            kind = self._kind_of(table)
            if kind is not None:
                _bridge.execute(f"DROP {kind} IF EXISTS {_datasets.quote_identifier(table)}")
            return
        _bridge.execute(f"DROP VIEW IF EXISTS {_datasets.quote_identifier(table)}")
        if not os.path.exists(path):
            _bridge.execute(f"DROP TABLE IF EXISTS {_datasets.quote_identifier(path)}")
            self.imported.pop(path, None)

    def prepare(self, data_dir, namespace):
        return self.datasets.sync(data_dir, self)

    def split(self, query):
        return split_statements(query, dollar_quotes=True)

    def start(self):
        pass

    def stop(self):
        pass

    def execute(self, statement):
        if "read_xlsx" in statement.lower() and not self.extension_loads("xlsx"):
            statement = _XLSX_SHEET_OPTION.sub(r"\1 :=", statement)
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
            "WHERE table_schema NOT IN ('information_schema', 'pg_catalog') AND table_name NOT LIKE '/%' "
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


async def read_files(data_dir=DATA_DIR):
    """Before a run that uses SQL: Parquet, JSON and Excel files in data_dir whose DuckDB extension
    cannot load are read by the kept JavaScript readers (awaited: they are asynchronous)."""
    if not _bridge.started():
        return
    await _get_engine().read_files(data_dir)


def files_to_read(data_dir=DATA_DIR):
    """Whether read_files has work to do (a Python cell then runs as a coroutine)."""
    return _bridge.started() and bool(_get_engine().unread_files(data_dir))


def sql_engine():
    """{name, version, dialect_note} of the engine SQL cells run in."""
    version = _bridge.version()
    return {"name": "duckdb", "version": version, "dialect_note": duckdb_note(version)}
