import json
import os
import sqlite3

import pytest

from runpad import dataset_tables, sql

pd = pytest.importorskip("pandas")

TABLE = "application/vnd.dataresource+json"
CAPS = {
    "streamChars": 10_000,
    "imagesPerRun": 20,
    "imageBytes": 5_000_000,
    "tableRows": 1_000,
    "tableColumns": 200,
    "textChars": 200_000,
}

SALES_CSV = "region,units,price,code\nnorth,3,2.5,007\nsouth,5,1.0,010\nnorth,4,3,\nwest,,2.25,123\n"


class Cell:
    """Runs SQL cells against one data directory and one namespace, as the kernel would."""

    def __init__(self, data_dir, **caps):
        self.data_dir = data_dir
        self.caps = {**CAPS, **caps}
        self.namespace = {"__name__": "__main__"}
        self.outputs = []

    def _emit(self, output):
        json.dumps(output, allow_nan=False)  # everything emitted must cross to JS as JSON
        self.outputs.append(output)

    def run(self, query):
        self.outputs = []
        status = sql.run_sql(query, self.namespace, self._emit, self.caps, data_dir=str(self.data_dir))
        return status, self.outputs

    def of_type(self, output_type):
        return [o for o in self.outputs if o["output_type"] == output_type]

    def result(self):
        (output,) = self.of_type("execute_result")
        return output["data"]

    def table(self):
        data = self.result()
        return data[TABLE], data["text/plain"]

    def rows(self, query):
        status, _ = self.run(query)
        assert status == "ok", self.outputs
        return [tuple(row.values()) for row in self.table()[0]["data"]]

    def error(self):
        (output,) = self.of_type("error")
        return output

    def stderr(self):
        return "".join(o["text"] for o in self.of_type("stream") if o["name"] == "stderr")


@pytest.fixture(autouse=True)
def fresh_engine(monkeypatch):
    monkeypatch.setattr(sql, "_duckdb", lambda: None)  # the sqlite3 path, even where duckdb exists
    sql.reset()
    yield
    sql.reset()


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir(exist_ok=True)  # the kernel fixture may have made it
    return path


@pytest.fixture
def cell(data_dir):
    return Cell(data_dir)


def write(path, text, mtime=None):
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, ns=(mtime, mtime))


def columns_of(cell, table):
    return cell.rows(f"SELECT name, type FROM pragma_table_info('{table}') ORDER BY cid")


# --- datasets ---------------------------------------------------------------------------------


def test_csv_tsv_jsonl_and_json_become_typed_tables(cell, data_dir):
    write(data_dir / "sales.csv", SALES_CSV)
    write(data_dir / "people.tsv", "name\tage\tnote\nAda\t36\thas, commas\nBob\t7\t\n")
    write(data_dir / "events.jsonl", '{"id": 1, "kind": "a", "score": 1.5, "tags": ["x"]}\n\n{"id": 2, "kind": "b", "score": 2, "ok": true}\n')
    write(data_dir / "cities.json", json.dumps([{"city": "Oslo", "pop": 700000}, {"city": "Bergen", "pop": None}]))

    assert columns_of(cell, "sales") == [("region", "TEXT"), ("units", "INTEGER"), ("price", "REAL"), ("code", "TEXT")]
    assert columns_of(cell, "people") == [("name", "TEXT"), ("age", "INTEGER"), ("note", "TEXT")]
    assert columns_of(cell, "events") == [("id", "INTEGER"), ("kind", "TEXT"), ("score", "REAL"), ("tags", "TEXT"), ("ok", "INTEGER")]
    assert columns_of(cell, "cities") == [("city", "TEXT"), ("pop", "INTEGER")]

    # Leading zeros stay text, empty cells are NULL, a tab file keeps its commas.
    assert cell.rows("SELECT code FROM sales ORDER BY rowid") == [("007",), ("010",), (None,), ("123",)]
    assert cell.rows("SELECT units FROM sales WHERE region = 'west'") == [(None,)]
    assert cell.rows("SELECT note FROM people ORDER BY name") == [("has, commas",), (None,)]
    assert cell.rows("SELECT id, tags, ok FROM events ORDER BY id") == [(1, '["x"]', None), (2, None, 1)]
    assert cell.rows("SELECT city, pop FROM cities ORDER BY city") == [("Bergen", None), ("Oslo", 700000)]


def test_group_by_shows_the_right_numbers_and_binds_sql(cell, data_dir):
    write(data_dir / "sales.csv", SALES_CSV)
    status, outputs = cell.run(
        "SELECT region, SUM(units) AS units, ROUND(SUM(units * price), 2) AS revenue\n"
        "FROM sales GROUP BY region ORDER BY region"
    )
    assert status == "ok"
    assert [o["output_type"] for o in outputs] == ["execute_result"]
    table, text = cell.table()
    assert [f["name"] for f in table["schema"]["fields"]] == ["region", "units", "revenue"]  # no index column
    assert table["data"] == [
        {"region": "north", "units": 7, "revenue": 19.5},
        {"region": "south", "units": 5, "revenue": 5.0},
        {"region": "west", "units": None, "revenue": None},
    ]
    assert table["shape"] == [3, 3]
    assert "north" in text and "19.5" in text and "[3 rows x 3 columns]" in text

    frame = cell.namespace["_sql"]
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["region"]) == ["north", "south", "west"]
    assert frame.loc[frame["region"] == "north", "revenue"].item() == 19.5
    assert frame["units"].sum() == 12


def test_sql_result_is_usable_from_python(kernel, data_dir):
    write(data_dir / "sales.csv", SALES_CSV)
    outputs = []
    status = sql.run_sql("SELECT units FROM sales WHERE units IS NOT NULL", kernel.kernel.namespace, outputs.append, CAPS, data_dir=str(data_dir))
    assert status == "ok"
    status, _ = kernel.run("print(int(_sql['units'].sum()))")
    assert status == "ok" and kernel.stdout() == "12\n"


def test_state_persists_across_runs(cell):
    status, _ = cell.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    assert status == "ok" and cell.result() == {"text/plain": "OK"}
    status, _ = cell.run("INSERT INTO notes (body) VALUES ('one'), ('two')")
    assert status == "ok" and cell.result() == {"text/plain": "OK, 2 rows affected"}
    assert cell.rows("SELECT id, body FROM notes ORDER BY id") == [(1, "one"), (2, "two")]


def test_statements_without_a_result_set_report_rows_affected(cell):
    cell.run("CREATE TABLE t (a INTEGER)")
    cell.run("INSERT INTO t VALUES (1), (2), (3)")
    assert cell.result() == {"text/plain": "OK, 3 rows affected"}
    cell.run("UPDATE t SET a = a * 10 WHERE a = 2")
    assert cell.result() == {"text/plain": "OK, 1 row affected"}
    cell.run("DELETE FROM t WHERE a > 100")
    assert cell.result() == {"text/plain": "OK, 0 rows affected"}
    assert "_sql" not in cell.namespace


def test_error_shows_the_engines_message_and_the_tables(cell, data_dir):
    write(data_dir / "sales.csv", SALES_CSV)
    cell.run("CREATE VIEW north AS SELECT * FROM sales WHERE region = 'north'")
    status, outputs = cell.run("SELECT regoin FROM sales")
    assert status == "error"
    assert [o["output_type"] for o in outputs] == ["error"]
    error = cell.error()
    assert error["ename"] == "OperationalError"
    assert error["evalue"] == "no such column: regoin"
    lines = error["traceback"]
    assert lines[0] == "OperationalError: no such column: regoin"
    assert "Tables:" in lines
    assert "  sales(region TEXT, units INTEGER, price REAL, code TEXT)" in lines
    assert any(line.startswith("  north(region") for line in lines)
    assert not any(line.startswith("Traceback") or line.lstrip().startswith("File ") for line in lines)


def test_error_in_a_later_statement_names_it_and_keeps_earlier_work(cell):
    status, _ = cell.run("CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1); SELECT * FROM missing; INSERT INTO a VALUES (2)")
    assert status == "error"
    error = cell.error()
    assert error["evalue"] == "no such table: missing"
    assert error["traceback"][1] == "in statement 3 of 4: SELECT * FROM missing;"
    assert "  a(x INTEGER)" in error["traceback"]
    assert cell.rows("SELECT x FROM a") == [(1,)]


def test_names_are_made_safe_and_deduplicated(cell, data_dir):
    write(data_dir / "2024 sales.csv", "year\n2024\n")
    write(data_dir / "Sales.csv", "which\nupper\n")
    write(data_dir / "sales.csv", "which\nlower\n")
    write(data_dir / "Q1-Report (final).tsv", "a\tb\n1\t2\n")
    write(data_dir / "notes.txt", "not a dataset\n")

    assert cell.rows("SELECT year FROM t_2024_sales") == [(2024,)]
    assert cell.rows("SELECT which FROM sales") == [("lower",)]
    assert cell.rows("SELECT which FROM sales_2") == [("upper",)]
    assert cell.rows("SELECT a + b FROM q1_report__final_") == [(3,)]
    names = cell.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    assert names == [("q1_report__final_",), ("sales",), ("sales_2",), ("t_2024_sales",)]


def test_table_name_rules():
    assert dataset_tables.base_table_name("sales.csv") == "sales"
    assert dataset_tables.base_table_name("2024 sales.csv") == "t_2024_sales"
    assert dataset_tables.base_table_name("Crème brûlée.json") == "cr_me_br_l_e"
    assert dataset_tables.base_table_name("sqlite_stat.csv") == "t_sqlite_stat"
    assert dataset_tables.base_table_name("!!.csv") == "__"
    assert dataset_tables.unique_name("sales", {"sales", "sales_2"}) == "sales_3"


def test_a_name_taken_by_a_users_table_is_not_overwritten(cell, data_dir):
    cell.run("CREATE TABLE sales (mine TEXT); INSERT INTO sales VALUES ('kept')")
    write(data_dir / "sales.csv", SALES_CSV)
    assert cell.rows("SELECT mine FROM sales") == [("kept",)]
    assert cell.rows("SELECT COUNT(*) FROM sales_2") == [(4,)]


def test_a_reuploaded_file_is_reloaded_and_an_unchanged_one_is_not(cell, data_dir):
    path = data_dir / "sales.csv"
    write(path, SALES_CSV, mtime=1_700_000_000_000_000_000)
    assert cell.rows("SELECT COUNT(*) FROM sales") == [(4,)]
    # Unchanged file: the table is not rebuilt (a row added in SQL survives the next run).
    cell.run("INSERT INTO sales (region) VALUES ('added')")
    assert cell.rows("SELECT COUNT(*) FROM sales") == [(5,)]

    write(path, "region,units\neast,10\neast,20\n", mtime=1_700_000_100_000_000_000)
    assert cell.rows("SELECT region, SUM(units) FROM sales GROUP BY region") == [("east", 30)]
    assert columns_of(cell, "sales") == [("region", "TEXT"), ("units", "INTEGER")]


def test_a_deleted_file_drops_its_table(cell, data_dir):
    write(data_dir / "gone.csv", "a\n1\n")
    assert cell.rows("SELECT a FROM gone") == [(1,)]
    (data_dir / "gone.csv").unlink()
    status, _ = cell.run("SELECT a FROM gone")
    assert status == "error" and cell.error()["evalue"] == "no such table: gone"


def test_a_broken_file_is_a_notice_and_the_rest_still_loads(cell, data_dir):
    write(data_dir / "bad.json", '{"not": "records"}')
    write(data_dir / "broken.jsonl", '{"a": 1}\n{oops\n')
    write(data_dir / "cube.parquet", "PAR1")
    write(data_dir / "ok.csv", "a\n1\n")
    status, outputs = cell.run("SELECT a FROM ok")
    assert status == "ok"
    assert [o["output_type"] for o in outputs] == ["stream", "execute_result"]
    notice = cell.stderr()
    assert "could not load" in notice and "bad.json" in notice and "expected an array of objects" in notice
    assert "broken.jsonl" in notice and "line 2" in notice
    assert "cube.parquet is not a SQL table" in notice
    # Said once per version of the file, not on every run.
    cell.run("SELECT a FROM ok")
    assert cell.stderr() == ""


def test_delimiter_is_detected_for_semicolon_csv(cell, data_dir):
    write(data_dir / "eu.csv", "name;amount\nA;1,5\nB;2\n")
    assert cell.rows("SELECT name, amount FROM eu ORDER BY name") == [("A", "1,5"), ("B", "2")]


def test_duplicate_and_case_clashing_headers(cell, data_dir):
    write(data_dir / "dup.csv", "id,ID,,name\n1,2,3,x\n")
    assert columns_of(cell, "dup") == [("id", "INTEGER"), ("ID_2", "INTEGER"), ("column_3", "INTEGER"), ("name", "TEXT")]


# --- statements ---------------------------------------------------------------------------------


def test_multiple_statements_run_in_order_and_the_last_result_is_shown(cell):
    status, outputs = cell.run(
        "CREATE TABLE x (a INTEGER, s TEXT);\n"
        "INSERT INTO x VALUES (1, 'semi;colon'), (2, 'it''s');  -- a comment; with a semicolon\n"
        "/* block; comment */ INSERT INTO x VALUES (3, \"no\");\n"
        "SELECT COUNT(*) AS n, GROUP_CONCAT(s, '|') AS s FROM x;\n"
        "-- trailing comment only"
    )
    assert status == "ok"
    assert [o["output_type"] for o in outputs] == ["execute_result"]
    table, _ = cell.table()
    assert table["data"] == [{"n": 3, "s": "semi;colon|it's|no"}]


def test_trigger_bodies_are_not_split(cell):
    status, _ = cell.run(
        "CREATE TABLE log (msg TEXT); CREATE TABLE t (a INTEGER);\n"
        "CREATE TRIGGER t_insert AFTER INSERT ON t BEGIN INSERT INTO log VALUES ('added ' || NEW.a); END;\n"
        "INSERT INTO t VALUES (7); SELECT msg FROM log"
    )
    assert status == "ok", cell.outputs
    assert cell.table()[0]["data"] == [{"msg": "added 7"}]


def test_split_statements():
    split = sql.split_statements
    assert split("SELECT 1; SELECT ';'; -- x;\n") == ["SELECT 1;", "SELECT ';';"]
    assert split("SELECT \"a;b\" FROM t; /* ; */") == ['SELECT "a;b" FROM t;']
    assert split("SELECT [a;b] FROM t; SELECT 2", brackets=True) == ["SELECT [a;b] FROM t;", "SELECT 2"]
    assert split("SELECT $$a;b$$; SELECT $x$;$x$", dollar_quotes=True) == ["SELECT $$a;b$$;", "SELECT $x$;$x$"]
    assert split("  ;; -- nothing\n") == []
    assert split("SELECT 'unterminated; still one") == ["SELECT 'unterminated; still one"]
    script = "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; SELECT 3"
    assert split(script, complete=sqlite3.complete_statement) == [
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;",
        "SELECT 3",
    ]


def test_an_empty_cell_is_ok_and_shows_nothing(cell):
    assert cell.run("  -- nothing to do\n") == ("ok", [])


# --- caps ---------------------------------------------------------------------------------------


def test_caps_apply_and_the_full_shape_is_reported(data_dir):
    cell = Cell(data_dir, tableRows=1_000, tableColumns=2)
    status, _ = cell.run(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)\n"
        "SELECT i, i * 2 AS twice, 'x' || i AS label FROM n"
    )
    assert status == "ok"
    table, text = cell.table()
    assert len(table["data"]) == 1_000
    assert table["shape"] == [5_000, 3]
    assert [f["name"] for f in table["schema"]["fields"]] == ["i", "twice"]
    assert table["data"][-1] == {"i": 1000, "twice": 2000}
    assert "[5,000 rows x 3 columns]" in text and len(text.splitlines()) < 100
    assert len(cell.namespace["_sql"]) == 5_000  # Python gets everything


def test_without_pandas_sql_is_a_list_of_dicts(cell, data_dir, monkeypatch):
    monkeypatch.setattr(sql, "_pandas", False)
    write(data_dir / "sales.csv", SALES_CSV)
    status, _ = cell.run("SELECT region, units FROM sales WHERE units > 3 ORDER BY units")
    assert status == "ok"
    assert cell.namespace["_sql"] == [{"region": "north", "units": 4}, {"region": "south", "units": 5}]
    table, text = cell.table()
    assert table["data"] == cell.namespace["_sql"]
    assert [f["type"] for f in table["schema"]["fields"]] == ["string", "integer"]
    assert table["shape"] == [2, 2]
    assert text.splitlines()[0].split() == ["region", "units"]


# --- interrupts ---------------------------------------------------------------------------------

# Long enough to be interrupted many times over, bounded so a broken interrupt fails instead of hanging.
LONG_QUERY = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT COUNT(*) FROM n"


def test_an_interrupt_stops_a_long_query(cell, monkeypatch):
    calls = []

    def interrupt_on_third_check():
        calls.append(1)
        if len(calls) >= 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(sql, "_check_interrupt", interrupt_on_third_check)
    status, outputs = cell.run("CREATE TABLE before (a INTEGER); " + LONG_QUERY)
    assert status == "interrupted"
    assert len(calls) == 3
    assert outputs == [{"output_type": "error", "ename": "KeyboardInterrupt", "evalue": "", "traceback": ["KeyboardInterrupt"]}]

    # The connection is fine afterwards, the handler is off and earlier statements stay done.
    monkeypatch.setattr(sql, "_check_interrupt", lambda: None)
    assert cell.rows("SELECT COUNT(*) FROM before") == [(0,)]


def test_an_interrupt_raised_before_the_handlers_try_still_counts(cell, monkeypatch):
    # In Pyodide the interpreter may raise KeyboardInterrupt on entry to the handler; sqlite3
    # then swallows it and aborts the query with SQLITE_INTERRUPT.
    def raising_handler(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(sql.SqliteEngine, "_progress", raising_handler)
    status, outputs = cell.run(LONG_QUERY)
    assert status == "interrupted"
    assert outputs[-1]["ename"] == "KeyboardInterrupt"


def test_an_interrupted_load_is_retried_on_the_next_run(cell, data_dir, monkeypatch):
    write(data_dir / "sales.csv", SALES_CSV)
    real_load = sql.SqliteEngine.load

    def interrupted_load(self, table, path, fmt):
        raise KeyboardInterrupt

    monkeypatch.setattr(sql.SqliteEngine, "load", interrupted_load)
    status, outputs = cell.run("SELECT COUNT(*) FROM sales")
    assert status == "interrupted" and outputs[-1]["ename"] == "KeyboardInterrupt"
    monkeypatch.setattr(sql.SqliteEngine, "load", real_load)
    assert cell.rows("SELECT COUNT(*) FROM sales") == [(4,)]


def test_interrupt_check_runs_during_queries(cell, monkeypatch):
    calls = []
    monkeypatch.setattr(sql, "_check_interrupt", lambda: calls.append(1))
    assert cell.rows("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT MAX(i) FROM n") == [(100000,)]
    assert len(calls) > 10


# --- engine -------------------------------------------------------------------------------------


def test_sql_engine_describes_sqlite():
    engine = sql.sql_engine()
    assert engine["name"] == "sqlite"
    assert engine["version"] == sqlite3.sqlite_version
    assert engine["dialect_note"] == (
        f"SQLite {sqlite3.sqlite_version}: use strftime for dates, || for concatenation, no FULL OUTER JOIN before 3.39"
    )


def test_sql_engine_reports_the_engine_in_use(cell):
    cell.run("SELECT 1")
    assert sql.sql_engine()["name"] == "sqlite"


def test_caps_may_be_a_caps_object(data_dir):
    from runpad.caps import Caps

    cell = Cell(data_dir)
    cell.caps = Caps.from_dict({**CAPS, "tableRows": 2})
    cell.run("SELECT 1 AS a UNION ALL SELECT 2 UNION ALL SELECT 3")
    assert cell.table()[0]["shape"] == [3, 1] and len(cell.table()[0]["data"]) == 2


def test_an_unexpected_failure_is_an_error_output(cell, monkeypatch):
    def broken(self, query):
        raise RuntimeError("splitter broke")

    monkeypatch.setattr(sql.SqliteEngine, "split", broken)
    status, outputs = cell.run("SELECT 1")
    assert status == "error"
    assert outputs[-1]["ename"] == "RuntimeError" and outputs[-1]["evalue"] == "splitter broke"


# --- the DuckDB path, against a recording stand-in (DuckDB itself is not installed here) -------


class FakeDuckDBError(Exception):
    pass


class FakeDuckDBConnection:
    """Answers the few statements the DuckDB engine sends, and records everything."""

    def __init__(self):
        self.executed = []
        self.views = {}
        self.registered = {}
        self._description = None
        self._rows = []

    def _answer(self, description, rows):
        self._description = description
        self._rows = list(rows)

    def execute(self, query):
        query = str(query)
        self.executed.append(query)
        if query.startswith("CREATE OR REPLACE VIEW"):
            name = query.split('"')[1]
            self.views[name] = query
            self._answer([("Count", "BIGINT")], [])
        elif query.startswith("DROP VIEW IF EXISTS"):
            self.views.pop(query.split('"')[1], None)
            self._answer(None, [])
        elif "information_schema.tables" in query:
            self._answer([("table_name", "VARCHAR")], [(n,) for n in [*self.views, *self.registered]])
        elif "information_schema.columns" in query:
            self._answer([("table_name",), ("column_name",), ("data_type",)], [(n, "region", "VARCHAR") for n in self.views])
        elif query.startswith("INSERT"):
            self._answer([("Count", "BIGINT")], [(3,)])
        elif query.startswith("CREATE TABLE"):
            self._answer([("Count", "BIGINT")], [(0,)])
        elif query.startswith("SELECT bad"):
            raise FakeDuckDBError('Binder Error: Referenced column "bad" not found')
        elif query.startswith("SELECT"):
            self._answer([("region", "VARCHAR"), ("units", "BIGINT")], [("north", 7), ("south", 5)])
        else:
            self._answer(None, [])
        return self

    @property
    def description(self):
        return self._description

    def fetchone(self):
        return self._rows[0] if self._rows else None

    def fetchall(self):
        return self._rows

    def df(self):
        return pd.DataFrame.from_records(self._rows, columns=[d[0] for d in self._description])

    def register(self, name, obj):
        self.registered[name] = obj

    def unregister(self, name):
        self.registered.pop(name)

    def close(self):
        pass


@pytest.fixture
def fake_duckdb(monkeypatch):
    import types

    con = FakeDuckDBConnection()
    module = types.SimpleNamespace(__version__="1.2.3", Error=FakeDuckDBError, connect=lambda path: con)
    monkeypatch.setattr(sql, "_duckdb", lambda: module)
    sql.reset()
    return con


def test_duckdb_path_views_frames_and_results(fake_duckdb, cell, data_dir):
    con = fake_duckdb
    write(data_dir / "sales.csv", SALES_CSV)
    write(data_dir / "people.tsv", "a\tb\n1\t2\n")
    write(data_dir / "cube.parquet", "PAR1")
    write(data_dir / "events.ndjson", '{"a": 1}\n')
    cell.namespace["orders"] = pd.DataFrame({"id": [1, 2]})
    cell.namespace["sales"] = pd.DataFrame({"shadowed": [1]})  # a dataset's name: the file wins
    cell.namespace["__hidden"] = pd.DataFrame({"x": [1]})

    status, _ = cell.run("SELECT region, SUM(units) FROM sales GROUP BY region")
    assert status == "ok"
    assert con.executed[0] == "SET python_enable_replacements = false"
    assert con.views["sales"] == f"CREATE OR REPLACE VIEW \"sales\" AS SELECT * FROM read_csv_auto('{data_dir / 'sales.csv'}')"
    assert con.views["people"].endswith(f"read_csv_auto('{data_dir / 'people.tsv'}', delim = '\\t')")
    assert con.views["cube"].endswith(f"read_parquet('{data_dir / 'cube.parquet'}')")
    assert con.views["events"].endswith(f"read_json_auto('{data_dir / 'events.ndjson'}', format = 'newline_delimited')")
    assert set(con.registered) == {"orders"}
    table, _ = cell.table()
    assert table["data"] == [{"region": "north", "units": 7}, {"region": "south", "units": 5}]
    assert list(cell.namespace["_sql"]["units"]) == [7, 5]

    # Next run: `_sql` is a DataFrame now, `orders` is gone, the unchanged files are left alone.
    del cell.namespace["orders"]
    views_before = len([q for q in con.executed if q.startswith("CREATE OR REPLACE VIEW")])
    cell.run("INSERT INTO t VALUES (1), (2), (3)")
    assert cell.result() == {"text/plain": "OK, 3 rows affected"}
    assert set(con.registered) == {"_sql"}
    assert len([q for q in con.executed if q.startswith("CREATE OR REPLACE VIEW")]) == views_before

    cell.run("CREATE TABLE t (a INTEGER)")
    assert cell.result() == {"text/plain": "OK"}

    status, _ = cell.run("SELECT 1; SELECT bad FROM sales")
    assert status == "error"
    error = cell.error()
    assert error["ename"] == "FakeDuckDBError"
    assert error["evalue"] == 'Binder Error: Referenced column "bad" not found'
    assert error["traceback"][1] == "in statement 2 of 2: SELECT bad FROM sales"
    assert "  sales(region VARCHAR)" in error["traceback"]

    (data_dir / "cube.parquet").unlink()
    cell.run("SELECT 1")
    assert "cube" not in con.views

    assert sql.sql_engine() == {"name": "duckdb", "version": "1.2.3", "dialect_note": sql.duckdb_note("1.2.3")}


def test_duckdb_interrupt_is_the_interrupted_status(fake_duckdb, cell, monkeypatch):
    def interrupted(query):
        raise RuntimeError("Query interrupted")

    monkeypatch.setattr(fake_duckdb, "execute", lambda query: interrupted(query) if str(query) == "SELECT 42" else FakeDuckDBConnection.execute(fake_duckdb, query))
    status, outputs = cell.run("SELECT 42")
    assert status == "interrupted"
    assert outputs == [{"output_type": "error", "ename": "KeyboardInterrupt", "evalue": "", "traceback": ["KeyboardInterrupt"]}]

    # Also when the interrupt lands while the engine is preparing (DuckDB reading a file).
    monkeypatch.setattr(fake_duckdb, "execute", interrupted)
    status, outputs = cell.run("SELECT 42")
    assert status == "interrupted" and outputs[-1]["ename"] == "KeyboardInterrupt"


def test_kernel_runs_sql_in_the_python_namespace(tmp_path):
    """A SQL cell through the Kernel: its result is `_sql` for the next Python cell."""
    import asyncio

    from runpad import sql as sql_module
    from runpad.kernel import Kernel

    sql_module.reset()
    data = tmp_path / "data"
    data.mkdir()
    (data / "sales.csv").write_text("region,units\nnorth,12\nsouth,30\n")
    outputs = []
    kernel = Kernel(outputs.append, {"streamChars": 10000, "imagesPerRun": 20, "imageBytes": 5000000, "tableRows": 1000, "tableColumns": 200, "textChars": 200000}, data_dir=str(data), output_dir=str(tmp_path / "out"))
    result = asyncio.run(kernel.run_sql("select sum(units) as total from sales"))
    assert result == {"status": "ok"}
    asyncio.run(kernel.run("print('total is', _sql[0]['total'] if isinstance(_sql, list) else int(_sql['total'][0]))"))
    assert any(o.get("name") == "stdout" and "total is 42" in o.get("text", "") for o in outputs)
    sql_module.reset()
