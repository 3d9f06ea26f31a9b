"""The files in /data as SQL tables: names, bookkeeping, and loading into SQLite.

Each supported file becomes a table named after it (`sales.csv` → `sales`). A table is
(re)loaded only when its file's (size, mtime) changed since it was loaded, so a re-uploaded
file is picked up by the next SQL run and an unchanged one costs one `stat`.

SQLite loading uses only the standard library: CSV/TSV via `csv` (two passes: infer each
column's type, then insert in batches, so memory stays bounded), JSON (an array of objects)
and JSON Lines via `json`. DuckDB reads the files itself (see `duckdb_source`).
"""

import csv
import io
import json
import os
import re

FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
}
BATCH_ROWS = 1_000
DELIMITERS = (",", ";", "\t", "|")  # the order lib/files/sniff.ts prefers on ties
DETECT_RECORDS = 30
DETECT_CHARS = 64 * 1024
INT64 = (-(2**63), 2**63 - 1)

_INT = re.compile(r"[+-]?(?:0|[1-9][0-9]*)\Z")
_REAL = re.compile(r"[+-]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


class LoadError(Exception):
    """A file that cannot become a table; the message says why."""


def quote_identifier(name):
    return '"' + str(name).replace('"', '""') + '"'


def quote_literal(text):
    return "'" + str(text).replace("'", "''") + "'"


def base_table_name(filename):
    """`Sales 2024.csv` → `sales_2024`; a leading digit gets `t_`; SQLite's reserved `sqlite_` too."""
    stem = os.path.splitext(filename)[0]
    name = re.sub(r"[^a-z0-9_]", "_", stem.lower())
    if not name:
        name = "data"
    if name[0].isdigit() or name.startswith("sqlite_"):
        name = "t_" + name
    return name


def unique_name(base, taken):
    """base, or base_2, base_3, … : the first not in taken (lowercase names)."""
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def scan(data_dir):
    """{filename: (path, format, (size, mtime_ns))} for the supported files directly in data_dir."""
    found = {}
    try:
        entries = list(os.scandir(data_dir))
    except OSError:
        return found
    for entry in entries:
        if entry.name.startswith("."):
            continue
        fmt = FORMATS.get(os.path.splitext(entry.name)[1].lower())
        if fmt is None:
            continue
        try:
            if not entry.is_file():
                continue
            stat = entry.stat()
        except OSError:
            continue
        found[entry.name] = (entry.path, fmt, (stat.st_size, stat.st_mtime_ns))
    return found


class Dataset:
    def __init__(self, table, fmt):
        self.table = table
        self.fmt = fmt
        self.signature = None
        self.loaded = False


class DatasetTables:
    """Which file is which table, and what was loaded from which version of the file.

    The engine passed to `sync` provides: `object_names()` (lowercase names of the tables and
    views that exist now), `supports(fmt)`, `load(table, path, fmt)` and `drop(table)`.
    """

    def __init__(self):
        self.datasets = {}  # filename -> Dataset

    def tables(self):
        return {d.table for d in self.datasets.values()}

    def sync(self, data_dir, engine):
        """Brings the tables in line with the files; returns notices (str) for files that failed."""
        files = scan(data_dir)
        notices = []
        for filename in list(self.datasets):
            dataset = self.datasets[filename]
            if filename not in files or files[filename][1] != dataset.fmt:
                if dataset.loaded:
                    engine.drop(dataset.table)
                del self.datasets[filename]

        existing = engine.object_names()
        taken = existing | self.tables()
        new = [name for name in files if name not in self.datasets]
        # A file whose name already is its table name gets it first: `sales.csv` → `sales`
        # and `Sales.csv` → `sales_2`, whatever order they arrived in.
        for filename in sorted(new, key=lambda f: (os.path.splitext(f)[0] != base_table_name(f), f)):
            table = unique_name(base_table_name(filename), taken)
            taken.add(table)
            self.datasets[filename] = Dataset(table, files[filename][1])

        for filename in sorted(files):
            path, fmt, signature = files[filename]
            dataset = self.datasets[filename]
            missing = dataset.loaded and dataset.table not in existing
            if dataset.signature == signature and not missing:
                continue
            if not engine.supports(fmt):
                if dataset.signature != signature:
                    notices.append(
                        f"{path} is not a SQL table: {fmt.capitalize()} files need DuckDB, which is not available here."
                    )
                dataset.signature = signature
                continue
            # A failure is reported once per version of the file; an interruption (which
            # propagates, the table left as it was) leaves the signature alone, so the next run
            # tries again.
            try:
                engine.load(dataset.table, path, fmt)
            except (LoadError, OSError, ValueError, UnicodeError, csv.Error, RecursionError) as error:
                notices.append(f"could not load {path} as table {dataset.table}: {error}")
            except Exception as error:  # the engine's own errors (e.g. too many columns)
                notices.append(f"could not load {path} as table {dataset.table}: {type(error).__name__}: {error}")
            else:
                dataset.loaded = True
            dataset.signature = signature
        return notices


# --- type inference ---------------------------------------------------------------------------


class _TextColumn:
    """Infers INTEGER / REAL / TEXT from the text values of a CSV column."""

    __slots__ = ("can_int", "can_real", "seen")

    def __init__(self):
        self.can_int = True
        self.can_real = True
        self.seen = False

    def add(self, value):
        value = value.strip()
        if not value:
            return
        self.seen = True
        if self.can_int:
            if _INT.match(value) and INT64[0] <= int(value) <= INT64[1]:
                return
            self.can_int = False
        if self.can_real and not _REAL.match(value):
            self.can_real = False

    @property
    def sql_type(self):
        if not self.seen:
            return "TEXT"
        if self.can_int:
            return "INTEGER"
        return "REAL" if self.can_real else "TEXT"


def _text_converter(sql_type):
    if sql_type == "INTEGER":
        return lambda v: int(v) if v.strip() else None
    if sql_type == "REAL":
        return lambda v: float(v) if v.strip() else None
    return lambda v: v if v.strip() else None


class _JsonColumn:
    """Infers INTEGER / REAL / TEXT from JSON values (numbers stay numbers, strings stay text)."""

    __slots__ = ("can_int", "can_real", "seen")

    def __init__(self):
        self.can_int = True
        self.can_real = True
        self.seen = False

    def add(self, value):
        if value is None:
            return
        self.seen = True
        if isinstance(value, bool) or (isinstance(value, int) and INT64[0] <= value <= INT64[1]):
            return
        self.can_int = False
        if not isinstance(value, (int, float)):
            self.can_real = False

    @property
    def sql_type(self):
        if not self.seen:
            return "TEXT"
        if self.can_int:
            return "INTEGER"
        return "REAL" if self.can_real else "TEXT"


def _json_converter(sql_type):
    def to_text(value):
        if value is None or isinstance(value, str):
            return value
        return json.dumps(value, ensure_ascii=False)

    if sql_type == "INTEGER":
        return lambda v: None if v is None else int(v)
    if sql_type == "REAL":
        return lambda v: None if v is None else float(v)
    return to_text


def unique_columns(names):
    """Column names as given, made non-empty and unique ignoring case (SQLite's rule)."""
    seen = set()
    result = []
    for i, name in enumerate(names):
        name = str(name).strip() or f"column_{i + 1}"
        candidate = name
        n = 2
        while candidate.lower() in seen:
            candidate = f"{name}_{n}"
            n += 1
        seen.add(candidate.lower())
        result.append(candidate)
    return result


# --- delimited text ---------------------------------------------------------------------------


def _open_text(path):
    return open(path, newline="", encoding="utf-8-sig", errors="replace")


def detect_delimiter(sample, fmt, complete):
    """The delimiter whose field counts agree best over the first records (ties: more fields,
    then the order , ; tab |), as the upload preview chooses it. `.tsv` prefers tab."""

    def score(delimiter):
        records = []
        for record in csv.reader(io.StringIO(sample), delimiter=delimiter):
            if record:
                records.append(record)
            if len(records) > DETECT_RECORDS:
                break
        if not complete and len(records) > 1:
            records = records[:-1]  # the sample may end inside the last record
        records = records[:DETECT_RECORDS]
        if not records or len(records[0]) < 2:
            return None
        fields = len(records[0])
        return (sum(1 for r in records if len(r) == fields) / len(records), fields)

    if fmt == "tsv" and score("\t"):
        return "\t"
    best, best_score = ("\t" if fmt == "tsv" else ","), None
    for delimiter in DELIMITERS:
        current = score(delimiter)
        if current and (best_score is None or current > best_score):
            best, best_score = delimiter, current
    return best


class _FieldLimit:
    """csv's per-field limit (128 KiB by default) raised while loading, then restored."""

    def __enter__(self):
        self._old = csv.field_size_limit(2**31 - 1)

    def __exit__(self, *exc):
        csv.field_size_limit(self._old)


def _delimited_rows(path, delimiter):
    with _open_text(path) as handle:
        for record in csv.reader(handle, delimiter=delimiter):
            if record:
                yield record


def read_delimited(path, fmt):
    """(columns, sql_types, rows()): rows() reads the file again, yielding converted tuples."""
    with _open_text(path) as handle:
        sample = handle.read(DETECT_CHARS)
        complete = not handle.read(1)
    delimiter = detect_delimiter(sample, fmt, complete)
    with _FieldLimit():
        records = _delimited_rows(path, delimiter)
        header = next(records, None)
        if header is None:
            raise LoadError("the file is empty")
        width = len(header)
        inferred = [_TextColumn() for _ in header]
        for record in records:
            if len(record) > width:
                inferred.extend(_TextColumn() for _ in range(len(record) - width))
                width = len(record)
            for column, value in zip(inferred, record):
                column.add(value)
    columns = unique_columns(list(header) + [""] * (width - len(header)))
    types = [c.sql_type for c in inferred]
    converters = [_text_converter(t) for t in types]

    def rows():
        with _FieldLimit():
            data = _delimited_rows(path, delimiter)
            next(data, None)
            for record in data:
                values = [convert(value) for convert, value in zip(converters, record)]
                if len(values) < width:
                    values.extend([None] * (width - len(values)))
                yield tuple(values)

    return columns, types, rows


# --- JSON ---------------------------------------------------------------------------------------


def _record(item):
    if isinstance(item, dict):
        return item
    return {"value": item}


class _JsonShape:
    def __init__(self):
        self.keys = {}  # key -> column index
        self.inferred = []

    def add(self, record):
        for key, value in record.items():
            index = self.keys.get(key)
            if index is None:
                index = self.keys[key] = len(self.inferred)
                self.inferred.append(_JsonColumn())
            self.inferred[index].add(value)

    def result(self, records):
        if not self.keys:
            raise LoadError("no fields found (expected an array of objects)")
        columns = unique_columns(list(self.keys))
        types = [c.sql_type for c in self.inferred]
        converters = [_json_converter(t) for t in types]
        keys = list(self.keys)

        def rows():
            for record in records():
                yield tuple(convert(record.get(key)) for convert, key in zip(converters, keys))

        return columns, types, rows


def read_json(path):
    with open(path, encoding="utf-8-sig") as handle:
        document = json.load(handle)
    if isinstance(document, dict):
        # {"data": [{...}, ...]}: the one array of objects inside.
        arrays = [v for v in document.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
        if len(arrays) != 1:
            raise LoadError("expected an array of objects")
        document = arrays[0]
    if not isinstance(document, list):
        raise LoadError("expected an array of objects")
    records = [_record(item) for item in document]
    shape = _JsonShape()
    for record in records:
        shape.add(record)
    return shape.result(lambda: iter(records))


def _json_lines(path):
    with open(path, encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield _record(json.loads(line))
            except ValueError as error:
                raise LoadError(f"line {number} is not JSON: {error}") from None


def read_json_lines(path):
    shape = _JsonShape()
    for record in _json_lines(path):
        shape.add(record)
    return shape.result(lambda: _json_lines(path))


READERS = {
    "csv": lambda path: read_delimited(path, "csv"),
    "tsv": lambda path: read_delimited(path, "tsv"),
    "json": read_json,
    "jsonl": read_json_lines,
}


def load_sqlite(con, table, path, fmt):
    """Replaces table with the file's contents, all or nothing (inside a savepoint, so it also
    works inside a transaction the user left open)."""
    columns, types, rows = READERS[fmt](path)
    name = quote_identifier(table)
    definition = ", ".join(f"{quote_identifier(c)} {t}" for c, t in zip(columns, types))
    insert = f"INSERT INTO {name} VALUES ({', '.join('?' for _ in columns)})"
    con.execute("SAVEPOINT runpad_load")
    try:
        con.execute(f"DROP TABLE IF EXISTS {name}")
        con.execute(f"CREATE TABLE {name} ({definition})")
        batch = []
        for row in rows():
            batch.append(row)
            if len(batch) >= BATCH_ROWS:
                con.executemany(insert, batch)
                batch = []
        if batch:
            con.executemany(insert, batch)
    except BaseException:
        con.execute("ROLLBACK TO runpad_load")
        con.execute("RELEASE runpad_load")
        raise
    con.execute("RELEASE runpad_load")


def duckdb_source(path, fmt):
    """The table function DuckDB reads the file with."""
    literal = quote_literal(path)
    if fmt == "csv":
        return f"read_csv_auto({literal})"
    if fmt == "tsv":
        return f"read_csv_auto({literal}, delim = '\\t')"
    if fmt == "json":
        return f"read_json_auto({literal})"
    if fmt == "jsonl":
        return f"read_json_auto({literal}, format = 'newline_delimited')"
    if fmt == "parquet":
        return f"read_parquet({literal})"
    raise LoadError(f"unsupported format {fmt}")
