"""The Python side of SQL (runpad.sql, runpad.duckdb_bridge, runpad.dataset_tables) against a
fake bridge: DuckDB's Python wheel is not installable here, and the real engine is DuckDB-wasm in
the browser (tested end to end in e2e/duckdb.spec.ts). The fake speaks the bridge's protocol
(lib/targets/sql/engine/bridge.ts: JSON results, pending queries polled, files registered by path) over
sqlite3, understanding just the DuckDB table functions the glue writes (read_csv, read_json,
read_parquet) and information_schema."""

import asyncio
import csv
import json
import re
import sqlite3

import pytest

from runpad import dataset_tables, duckdb_bridge, sql, sql_results, sql_statements

TABLE = "application/vnd.dataresource+json"
CAPS = {
    "streamChars": 10_000,
    "imagesPerRun": 20,
    "imageBytes": 5_000_000,
    "tableRows": 1_000,
    "tableColumns": 200,
    "textChars": 200_000,
}

SALES_CSV = "region,units,price\nnorth,3,2.5\nsouth,5,1.0\nnorth,4,3\nwest,,2.25\n"
READER = re.compile(r"CREATE OR REPLACE (?:TABLE|VIEW) (\"[^\"]+\") AS SELECT \* FROM (read_\w+)\('([^']+)'")


def _typed(value):
    if value == "":
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


class FakeBridge:
    """The bridge's protocol over sqlite3. `polls_needed` makes a statement pending for that many polls."""

    version = "v-fake"
    extensionRepository = "https://mirror.example/duckdb"

    def __init__(self):
        self.con = sqlite3.connect(":memory:", isolation_level=None)
        self.files = set()
        self.polls_needed = 0
        self.pending = None
        self.cancelled = 0
        self.statements = []
        self.imports = []
        # DuckDB's extensions whose file is at the source (lib/targets/sql/engine/bridge.ts, loadExtension)
        self.available_extensions = set()
        self.extension_loads = []
        self.restart_on_load = False

    # -- files
    def registerFile(self, path):
        self.files.add(path)
        return True

    def dropFile(self, path):
        self.files.discard(path)

    # -- queries
    def _run(self, statement):
        self.statements.append(statement)
        reader = READER.match(statement)
        if reader:
            table, function, path = reader.groups()
            path = path.replace("''", "'")
            assert path in self.files, f"{path} read before it was registered"
            loaded = {"read_parquet": "parquet", "read_json": "json", "read_xlsx": "excel"}.get(function) in self.available_extensions
            if function != "read_csv" and not loaded:
                raise Exception(
                    f'Catalog Error: Table Function with name "{function}" is not in the catalog, but it exists in the '
                    f"{'parquet' if function == 'read_parquet' else 'json'} extension."
                )
            with open(path, newline="") as handle:
                records = list(csv.reader(handle, delimiter="\t" if "delim" in statement else ","))
            columns = records[0]
            self.con.execute(f"DROP TABLE IF EXISTS {table}")
            self.con.execute(f'CREATE TABLE {table} ({", ".join(f"{c!r}" for c in columns)})')
            self.con.executemany(
                f'INSERT INTO {table} VALUES ({", ".join("?" for _ in columns)})', [[_typed(v) for v in r] for r in records[1:]]
            )
            return self._json(["Count"], [[len(records) - 1]])
        if re.search(r"\bread_(parquet|json|xlsx)\(", statement):
            function = re.search(r"\bread_\w+", statement).group(0)
            raise Exception(f'Catalog Error: Table Function with name "{function}" is not in the catalog, but it exists in an extension.')
        if "information_schema.tables" in statement:
            names = self.con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
            return self._json(["table_name"], names)
        if "information_schema.columns" in statement:
            rows = []
            for (name,) in self.con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
                for info in self.con.execute(f'PRAGMA table_info("{name}")'):
                    rows.append([name, info[1], info[2] or "ANY"])
            return self._json(["table_name", "column_name", "data_type"], rows)
        try:
            cursor = self.con.execute(statement)
        except sqlite3.Error as error:
            raise Exception(f"Binder Error: {error}") from None
        if cursor.description is None:
            return self._json(["Count"], [[cursor.rowcount]]) if cursor.rowcount >= 0 else self._json([], [])
        return self._json([d[0] for d in cursor.description], cursor.fetchall())

    @staticmethod
    def _json(columns, rows):
        def kind(values):
            present = [v for v in values if v is not None]
            if present and all(isinstance(v, int) for v in present):
                return "integer"
            if present and all(isinstance(v, (int, float)) for v in present):
                return "number"
            return "string"

        kinds = [kind([row[i] for row in rows]) for i in range(len(columns))]
        return json.dumps({"columns": columns, "kinds": kinds, "types": kinds, "rows": [list(r) for r in rows]})

    def start(self, statement):
        result = self._run(statement)
        if self.polls_needed:
            self.pending = [self.polls_needed, result]
            return None
        return result

    def poll(self):
        self.pending[0] -= 1
        return self.pending[1] if self.pending[0] <= 0 else None

    def cancel(self):
        self.cancelled += 1
        self.pending = None
        return True

    async def loadExtension(self, name):
        self.extension_loads.append(name)
        if self.restart_on_load:
            # The load broke the engine and the bridge started a fresh one: every table is gone.
            self.con = sqlite3.connect(":memory:", isolation_level=None)
            self.files = set()
            return json.dumps({"loaded": False, "reason": "RuntimeError: null function", "restarted": True})
        if name in self.available_extensions:
            return json.dumps({"loaded": True, "reason": None, "restarted": False})
        return json.dumps({"loaded": False, "reason": f"https://mirror.example/duckdb/v-fake/wasm_eh/{name}.duckdb_extension.wasm could not be fetched", "restarted": False})

    # -- the kept JavaScript readers (lib/targets/sql/engine/offline-tables.ts): JSON (and Arrow, as JSON here) read here; others fail
    async def importFile(self, path, fmt):
        self.imports.append(path)
        name = path.rsplit("/", 1)[-1]
        if fmt not in ("json", "arrow"):
            return json.dumps({"ok": False, "message": f"{name} could not be read as a {fmt} file: it looks damaged"})
        with open(path) as handle:
            records = json.load(handle)
        columns = list(dict.fromkeys(key for record in records for key in record))
        self.con.execute(f'DROP TABLE IF EXISTS "{path}"')
        self.con.execute(f'CREATE TABLE "{path}" ({", ".join(repr(c) for c in columns)})')
        self.con.executemany(f'INSERT INTO "{path}" VALUES ({", ".join("?" for _ in columns)})', [[r.get(c) for c in columns] for r in records])
        return json.dumps({"ok": True, "rows": len(records)})


class Cell:
    """Runs SQL cells against one data directory and one namespace, as the kernel would."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.namespace = {"__name__": "__main__"}
        self.outputs = []

    def _emit(self, output):
        json.dumps(output, allow_nan=False)  # everything emitted must cross to JS as JSON
        self.outputs.append(output)

    def run(self, query):
        self.outputs = []
        asyncio.run(sql.read_files(str(self.data_dir)))  # as the kernel does before a SQL run
        return sql.run_sql(query, self.namespace, self._emit, CAPS, data_dir=str(self.data_dir)), self.outputs

    def of_type(self, output_type):
        return [o for o in self.outputs if o["output_type"] == output_type]

    def table(self):
        (output,) = self.of_type("execute_result")
        return output["data"][TABLE], output["data"]["text/plain"]

    def rows(self, query):
        status, _ = self.run(query)
        assert status == "ok", self.outputs
        return [tuple(row.values()) for row in self.table()[0]["data"]]

    def stderr(self):
        return "".join(o["text"] for o in self.of_type("stream") if o["name"] == "stderr")


@pytest.fixture
def bridge():
    fake = FakeBridge()
    duckdb_bridge.set_bridge(fake)
    sql.reset()
    yield fake
    duckdb_bridge.reset()
    sql.reset()


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def cell(bridge, data_dir):
    return Cell(data_dir)


def test_a_csv_is_a_table_read_by_duckdbs_reader_from_the_registered_file(cell, bridge, data_dir):
    (data_dir / "Sales 2024.csv").write_text(SALES_CSV)
    rows = cell.rows("SELECT region, SUM(units) AS units FROM sales_2024 GROUP BY region ORDER BY region")
    assert rows == [("north", 7), ("south", 5), ("west", None)]
    path = str(data_dir / "Sales 2024.csv")
    assert path in bridge.files  # DuckDB reads the interpreter's file, no copy made in Python
    assert any(s.startswith('CREATE OR REPLACE TABLE "sales_2024" AS SELECT * FROM read_csv(') for s in bridge.statements)
    loads = len(bridge.statements)
    cell.rows("SELECT 1")
    assert not any("read_csv" in s for s in bridge.statements[loads:])  # unchanged file: not read again


def test_a_file_kept_on_the_device_is_a_view_read_in_place(cell, bridge, data_dir, tmp_path, monkeypatch):
    # The worker mounts a kept file under /mnt/device/<sha256>/ and links /data/<name> to it
    # (lib/files/device-mount.ts): here a directory stands in for the mount.
    mount = tmp_path / "mnt" / "device"
    (mount / ("a" * 64)).mkdir(parents=True)
    (mount / ("a" * 64) / "dataset").write_text(SALES_CSV)
    monkeypatch.setattr(dataset_tables, "DEVICE_MOUNT_ROOT", str(mount) + "/")
    (data_dir / "kept.csv").symlink_to(mount / ("a" * 64) / "dataset")
    (data_dir / "uploaded.csv").write_text(SALES_CSV)
    assert cell.rows("SELECT count(*) FROM kept") == [(4,)]
    assert any(s.startswith('CREATE OR REPLACE VIEW "kept" AS SELECT * FROM read_csv(') for s in bridge.statements)
    assert any(s.startswith('CREATE OR REPLACE TABLE "uploaded" AS SELECT * FROM read_csv(') for s in bridge.statements)
    assert str(data_dir / "kept.csv") in bridge.files  # DuckDB reads it by its /data path, in ranges


def test_the_result_is_a_table_and_sql_underscore_in_python(cell, data_dir):
    (data_dir / "sales.csv").write_text(SALES_CSV)
    cell.run("SELECT region, price FROM sales ORDER BY price")
    table, text = cell.table()
    assert table["shape"] == [4, 2]
    assert [f["name"] for f in table["schema"]["fields"]] == ["region", "price"]
    assert "[4 rows x 2 columns]" in text
    result = cell.namespace["_sql"]
    if isinstance(result, sql.SqlTable):
        assert result.columns == ["region", "price"] and result.rows[0] == ("south", 1.0)
        assert list(result)[0] == {"region": "south", "price": 1.0}
    else:  # pandas is loaded
        assert list(result.columns) == ["region", "price"] and result.iloc[0]["region"] == "south"


def test_sql_from_python_shares_the_database_and_hands_over_python_data(bridge, data_dir, monkeypatch):
    monkeypatch.setattr(sql_results, "_pandas", False)  # the light table, as without pandas
    (data_dir / "sales.csv").write_text(SALES_CSV)
    result = sql.sql("SELECT count(*) AS n FROM sales", data_dir=str(data_dir))
    assert isinstance(result, sql.SqlTable) and result.rows == [(4,)] and result["n"] == [4]
    assert sql.sql_table("targets", [{"region": "north", "target": 10}, {"region": "south", "target": 3}]) == "targets"
    joined = sql.sql(
        "SELECT s.region, SUM(units) AS units, MAX(t.target) AS target FROM sales s JOIN targets t USING (region) "
        "GROUP BY s.region ORDER BY s.region",
        data_dir=str(data_dir),
    )
    assert joined.rows == [("north", 7, 10), ("south", 5, 3)]
    written = data_dir.parent / "written.csv"
    written.write_text("a,b\n1,x\n2,y\n")
    sql.sql_table("written", str(written))
    assert str(written) in bridge.files
    assert sql.sql("SELECT sum(a) AS s FROM written", data_dir=str(data_dir)).rows == [(3,)]
    with pytest.raises(ValueError):
        sql.sql_table("bad name", [{"a": 1}])


def test_sql_and_the_last_cell_agree(cell, data_dir, monkeypatch):
    monkeypatch.setattr(sql_results, "_pandas", False)
    (data_dir / "sales.csv").write_text(SALES_CSV)
    cell.run("SELECT region, SUM(units) AS u FROM sales GROUP BY region ORDER BY region")
    again = sql.sql("SELECT region, SUM(units) AS u FROM sales GROUP BY region ORDER BY region", data_dir=str(data_dir))
    assert cell.namespace["_sql"] == again


def test_an_error_names_the_tables_and_their_columns_and_earlier_statements_stay_done(cell, data_dir):
    (data_dir / "sales.csv").write_text(SALES_CSV)
    status, outputs = cell.run("CREATE TABLE t AS SELECT 1 AS x; SELECT regoin FROM sales")
    assert status == "error"
    (error,) = [o for o in outputs if o["output_type"] == "error"]
    text = "\n".join(error["traceback"])
    assert "regoin" in text
    assert "in statement 2 of 2" in text
    assert "sales(region" in text and "units" in text and "price" in text
    assert "t(x" in text
    assert cell.rows("SELECT x FROM t") == [(1,)]


def test_statements_without_rows_report_what_changed(cell):
    cell.run("CREATE TABLE t (x INTEGER)")
    status, outputs = cell.run("INSERT INTO t VALUES (1), (2)")
    assert status == "ok"
    assert outputs[-1]["data"]["text/plain"] == "OK, 2 rows affected"


def test_stop_cancels_the_pending_query_and_reports_interrupted(cell, bridge):
    bridge.polls_needed = 5
    calls = {"n": 0}
    poll = bridge.poll

    def interrupted_poll():
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # what Pyodide raises when the page sets the interrupt flag
        return poll()

    bridge.poll = interrupted_poll
    status, outputs = cell.run("SELECT 1")
    assert status == "interrupted"
    assert bridge.cancelled == 1
    assert outputs[-1]["ename"] == "KeyboardInterrupt"
    bridge.polls_needed = 2
    bridge.poll = poll
    assert cell.rows("SELECT 2") == [(2,)]  # the engine is still there


def test_a_damaged_parquet_file_is_named_once_when_the_kept_reader_cannot_read_it(cell, bridge, data_dir):
    (data_dir / "sales.csv").write_text(SALES_CSV)
    (data_dir / "events.parquet").write_bytes(b"PAR1....PAR1")
    assert cell.rows("SELECT count(*) FROM sales") == [(4,)]
    notice = cell.stderr()
    assert "could not load" in notice and "events.parquet could not be read as a parquet file: it looks damaged" in notice
    cell.run("SELECT 1")
    assert "events.parquet" not in cell.stderr()  # said once per version of the file
    assert bridge.imports == [str(data_dir / "events.parquet")]  # and read once


def test_json_without_the_extension_is_read_by_the_kept_reader_and_is_a_view_of_its_table(cell, bridge, data_dir):
    path = data_dir / "people.json"
    path.write_text(json.dumps([{"name": "a", "age": 3}, {"name": "b", "age": 5}]))
    assert cell.rows("SELECT SUM(age) FROM people") == [(8,)]
    assert any(s.startswith(f'CREATE VIEW "people" AS SELECT * FROM "{path}"') for s in bridge.statements)
    assert cell.rows("SELECT COUNT(*) FROM people") == [(2,)]
    assert bridge.imports == [str(path)]  # an unchanged file is not read again
    path.unlink()
    status, _ = cell.run("SELECT * FROM people")
    assert status == "error"
    assert 'DROP VIEW IF EXISTS "people"' in bridge.statements


def test_without_the_excel_extension_read_xlsx_names_its_sheet_as_the_kept_reader_takes_it(cell, bridge):
    cell.run("SELECT * FROM read_xlsx('/data/book.xlsx', sheet = 'Q1 costs') WHERE a == 1")
    cell.run("SELECT * FROM read_xlsx('/data/book.xlsx', sheet := 'Budget')")
    sent = [s for s in bridge.statements if "/data/book.xlsx" in s]
    assert sent == [
        "SELECT * FROM read_xlsx('/data/book.xlsx', sheet := 'Q1 costs') WHERE a == 1",
        "SELECT * FROM read_xlsx('/data/book.xlsx', sheet := 'Budget')",
    ]


def test_a_deleted_file_drops_its_table_and_a_changed_one_is_reloaded(cell, bridge, data_dir):
    path = data_dir / "sales.csv"
    path.write_text(SALES_CSV)
    assert cell.rows("SELECT COUNT(*) FROM sales") == [(4,)]
    path.write_text("region,units,price\neast,1,1\n")
    import os

    os.utime(path, ns=(1, 1))
    assert cell.rows("SELECT COUNT(*) FROM sales") == [(1,)]
    path.unlink()
    status, _ = cell.run("SELECT * FROM sales")
    assert status == "error"


def test_without_duckdb_the_reason_is_an_error_output(data_dir):
    duckdb_bridge.reset()
    sql.reset()
    duckdb_bridge.set_start_error("fetching /duckdb/1.32.0/duckdb-eh.wasm failed")
    cell = Cell(data_dir)
    status, outputs = cell.run("SELECT 1")
    assert status == "error"
    assert "DuckDB, the SQL engine, could not start: fetching /duckdb/1.32.0/duckdb-eh.wasm failed" in json.dumps(outputs)
    duckdb_bridge.reset()


def test_results_are_parsed_back_into_python_values():
    text = json.dumps(
        {
            "columns": ["d", "t", "n"],
            "kinds": ["date", "datetime", "integer"],
            "types": ["Date32<DAY>", "Timestamp<MICROSECOND>", "Int64"],
            "rows": [["2024-01-31", "2024-01-31T12:30:00", 9007199254740993], [None, None, None]],
        }
    )
    result = duckdb_bridge.parse_result(text)
    import datetime

    assert result.rows[0] == (datetime.date(2024, 1, 31), datetime.datetime(2024, 1, 31, 12, 30), 9007199254740993)
    assert result.rows[1] == (None, None, None)


def test_dates_without_pandas_become_iso_text_in_the_table(bridge, data_dir, monkeypatch):
    import datetime

    monkeypatch.setattr(sql_results, "_pandas", False)
    result = sql_results._Result(columns=["d"], rows=[(datetime.date(2024, 1, 31),)], kinds=["date"])
    table = sql_results._rows_table(["d"], result.rows, sql._as_caps(CAPS))
    assert table["data"] == [{"d": "2024-01-31"}]


def test_table_names_and_statement_splitting():
    assert dataset_tables.base_table_name("Sales 2024.csv") == "sales_2024"
    assert dataset_tables.base_table_name("2024.csv") == "t_2024"
    assert sql_statements.split_statements("select 1; select $$a;b$$; -- c;\n", dollar_quotes=True) == ["select 1;", "select $$a;b$$;"]
    assert dataset_tables.duckdb_source("/data/a.tsv", "tsv") == "read_csv('/data/a.tsv', delim = '\\t')"
    assert dataset_tables.duckdb_source("/data/it's.xlsx", "xlsx") == "read_xlsx('/data/it''s.xlsx')"


def test_duckdb_never_fetches_an_extension_itself_the_bridge_decides_once_per_extension(cell, bridge, data_dir):
    # Offline: no query is sent that would make DuckDB fetch an extension (a fetch that fails inside
    # the engine half-loads it and every later statement traps); the bridge is asked once per extension.
    (data_dir / "a.json").write_text(json.dumps([{"x": 1}]))
    (data_dir / "b.json").write_text(json.dumps([{"x": 2}]))
    (data_dir / "c.jsonl").write_text('{"x": 3}\n')
    assert cell.rows("SELECT (SELECT sum(x) FROM a) + (SELECT sum(x) FROM b)") == [(3,)]
    assert bridge.extension_loads == ["json"]
    assert not any(re.search(r"\bread_(parquet|json|xlsx)\(", s) for s in bridge.statements)
    assert sorted(bridge.imports) == sorted(str(data_dir / n) for n in ("a.json", "b.json", "c.jsonl"))


def test_with_the_extension_at_the_source_duckdbs_own_reader_reads_the_file(cell, bridge, data_dir):
    bridge.available_extensions = {"parquet"}
    (data_dir / "sales.parquet").write_text(SALES_CSV)  # the fake's read_parquet reads CSV text
    assert cell.rows("SELECT count(*) FROM sales") == [(4,)]
    assert bridge.extension_loads == ["parquet"]
    assert bridge.imports == []
    assert any(s.startswith('CREATE OR REPLACE TABLE "sales" AS SELECT * FROM read_parquet(') for s in bridge.statements)


def test_a_load_that_broke_the_engine_leaves_a_fresh_one_and_every_file_a_table_again(cell, bridge, data_dir):
    (data_dir / "sales.csv").write_text(SALES_CSV)
    assert cell.rows("SELECT count(*) FROM sales") == [(4,)]
    bridge.restart_on_load = True
    (data_dir / "people.json").write_text(json.dumps([{"name": "a", "age": 3}]))
    assert cell.rows("SELECT (SELECT count(*) FROM sales), (SELECT sum(age) FROM people)") == [(4, 3)]


def test_an_error_names_the_files_in_data_that_are_not_tables_and_why(cell, bridge, data_dir):
    (data_dir / "events.parquet").write_bytes(b"PAR1....PAR1")
    (data_dir / "book.xlsx").write_bytes(b"PK\x03\x04 not really")
    status, outputs = cell.run("SELECT * FROM events")
    assert status == "error"
    (error,) = cell.of_type("error")
    text = "\n".join(error["traceback"])
    assert "Tables: none (no files in /data" not in text
    assert "Files in /data that are not tables:" in text
    assert "events.parquet: events.parquet could not be read as a parquet file" in text
    assert "book.xlsx: book.xlsx could not be read as a xlsx file" in text


@pytest.mark.parametrize("name", ["flights.arrow", "Flights Ü.feather"])
def test_an_arrow_ipc_file_is_a_table_read_by_the_kept_reader(cell, bridge, data_dir, name):
    path = data_dir / name
    path.write_text(json.dumps([{"delay": 4, "distance": 100}, {"delay": -2, "distance": 250}]))
    table = dataset_tables.base_table_name(name)
    assert cell.rows(f'SELECT sum(delay), sum(distance) FROM "{table}"') == [(2, 350)]
    assert bridge.imports == [str(path)]
    assert bridge.extension_loads == []  # no DuckDB extension reads Arrow IPC
