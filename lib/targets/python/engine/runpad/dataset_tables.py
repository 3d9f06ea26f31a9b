"""The files in /data as SQL tables: names and bookkeeping; DuckDB reads them.

Each supported file becomes a table named after it (`sales.csv` → `sales`). A table is
(re)loaded only when its file's (size, mtime) changed since it was loaded, so a re-uploaded
file is picked up by the next SQL run and an unchanged one costs one `stat`. Columns and types
come from DuckDB's own readers (its CSV sniffer, its JSON reader); `duckdb_source` names them.
Parquet, JSON and Excel without DuckDB's extension (offline) are read by the kept JavaScript
readers first (runpad.sql.read_files); the table is then a view of what they made.
"""

import os
import re

FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".xlsx": "xlsx",
    ".arrow": "arrow",
    ".feather": "arrow",
}

# Where the worker mounts files kept on the device; /data/<name> links there (lib/files/device-mount.ts).
DEVICE_MOUNT_ROOT = "/mnt/device/"


def kept_on_device(path):
    """Whether `path` is a file kept on the device (read in place from the disk, never copied)."""
    return os.path.realpath(path).startswith(DEVICE_MOUNT_ROOT)


class LoadError(Exception):
    """A file that cannot become a table; the message says why."""


def quote_identifier(name):
    return '"' + str(name).replace('"', '""') + '"'


def quote_literal(text):
    return "'" + str(text).replace("'", "''") + "'"


def base_table_name(filename):
    """`Sales 2024.csv` → `sales_2024`; a leading digit gets `t_` (and `sqlite_…`, as before)."""
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


def table_format(filename):
    """The format a file in /data is read as a table in, or None: not a table file, or hidden."""
    if filename.startswith("."):
        return None
    return FORMATS.get(os.path.splitext(filename)[1].lower())


def table_names(filenames, taken=()):
    """{filename: table} for files new to /data, never a name in `taken`: a file whose name already
    is its table name gets it first (`sales.csv` → `sales`, `Sales.csv` → `sales_2`, whatever order
    they arrived in), then by name. An exported notebook names its tables with this very code
    (scripts/generate-notebook-python.py)."""
    taken = set(taken)
    names = {}
    for filename in sorted(filenames, key=lambda f: (os.path.splitext(f)[0] != base_table_name(f), f)):
        names[filename] = unique_name(base_table_name(filename), taken)
        taken.add(names[filename])
    return names


def scan(data_dir):
    """{filename: (path, format, (size, mtime_ns))} for the supported files directly in data_dir."""
    found = {}
    try:
        entries = list(os.scandir(data_dir))
    except OSError:
        return found
    for entry in entries:
        fmt = table_format(entry.name)
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
        self.failure = None  # why the file is not a table (its last load failed), else None


class DatasetTables:
    """Which file is which table, and what was loaded from which version of the file.

    The engine passed to `sync` provides: `object_names()` (lowercase names of the tables and
    views that exist now), `supports(fmt)`, `load(table, path, fmt)` and `drop(table)`.
    """

    def __init__(self):
        self.datasets = {}  # filename -> Dataset

    def tables(self):
        return {d.table for d in self.datasets.values()}

    def failed(self):
        """[(filename, why)] of the files in /data whose table could not be made, by name."""
        return sorted((name, d.failure) for name, d in self.datasets.items() if d.failure)

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
        for filename, table in table_names(new, taken).items():
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
            except (LoadError, OSError, ValueError, UnicodeError, RecursionError) as error:
                dataset.failure = str(error)
                notices.append(f"could not load {path} as table {dataset.table}: {error}")
            except Exception as error:  # the engine's own errors (e.g. too many columns)
                dataset.failure = f"{type(error).__name__}: {error}"
                notices.append(f"could not load {path} as table {dataset.table}: {dataset.failure}")
            else:
                dataset.loaded = True
                dataset.failure = None
            dataset.signature = signature
        return notices


def duckdb_source(path, fmt):
    """The table function DuckDB reads the file with."""
    literal = quote_literal(path)
    if fmt == "csv":
        return f"read_csv({literal})"
    if fmt == "tsv":
        return f"read_csv({literal}, delim = '\\t')"
    if fmt == "json":
        return f"read_json({literal})"
    if fmt == "jsonl":
        return f"read_json({literal}, format = 'newline_delimited')"
    if fmt == "parquet":
        return f"read_parquet({literal})"
    if fmt == "xlsx":
        return f"read_xlsx({literal})"
    if fmt == "arrow":
        return quote_identifier(path)  # the table the kept reader made (there is no DuckDB reader for it)
    raise LoadError(f"unsupported format {fmt}")
