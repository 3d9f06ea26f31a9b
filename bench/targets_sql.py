"""The SQL half of bench/targets.mjs, run unchanged in two interpreters: in the browser's Pyodide
(bench/bare/targets-sql-worker.mjs imports it) and natively under CPython (`python3
bench/targets_sql.py <data_dir> <repeat>`), so both sides time the same code over the same file.

SQL goes through the app's own package (lib/targets/python/engine/runpad): `Kernel.run_sql`, the call the
Python worker makes for a SQL cell. Its SQLite engine loads each /data file as a table
(`SqliteEngine.load`) and then runs the statements (`SqliteEngine.execute`); both are wrapped
with a timer here so load and query are reported separately. The baseline loop reads the same
CSV with the `csv` module and sums per region in a dict.
"""

import csv
import json
import sys
import time

QUERY = (
    "SELECT region, COUNT(*) AS orders, SUM(amount) AS revenue, AVG(amount) AS mean_amount "
    "FROM sales GROUP BY region ORDER BY region"
)
CAPS = None  # set by configure(): the app's OUTPUT_CAPS, passed in from lib/runtime/limits.ts
_timings = {"load": [], "execute": []}


def _timed(kind, method):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            _timings[kind].append((time.perf_counter() - start) * 1000)

    return wrapper


def configure(caps_json):
    """Sets the caps and wraps the engine's load and execute with timers (once per interpreter)."""
    global CAPS
    from runpad import sql

    CAPS = json.loads(caps_json)
    if not getattr(sql.SqliteEngine, "_bench_timed", False):
        sql.SqliteEngine.load = _timed("load", sql.SqliteEngine.load)
        sql.SqliteEngine.execute = _timed("execute", sql.SqliteEngine.execute)
        sql.SqliteEngine._bench_timed = True


def fresh_engine():
    """Drops the SQL engine, as a new interpreter would have none: the next run loads /data again."""
    from runpad import sql

    sql.reset()
    for values in _timings.values():
        values.clear()


def take_timings():
    """{load, execute}: ms spent in each since the last call (several statements would add up)."""
    taken = {kind: sum(values) for kind, values in _timings.items()}
    for values in _timings.values():
        values.clear()
    return taken


def bare_query():
    """The same query on the engine's connection straight through sqlite3, without the run's
    progress handler (which calls into Python every sql.PROGRESS_STEPS instructions for interrupts)."""
    from runpad import sql

    start = time.perf_counter()
    sql._get_engine().con.execute(QUERY).fetchall()
    return (time.perf_counter() - start) * 1000


def sql_rows(kernel):
    """The last SQL result (`_sql`, a list of dicts without pandas) as [region, orders, revenue, mean]."""
    return [[r["region"], r["orders"], r["revenue"], r["mean_amount"]] for r in kernel.namespace["_sql"]]


def csv_loop(path):
    """The same GROUP BY written by hand: csv.reader and a dict of [count, sum] per region."""
    totals = {}
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        region_at, amount_at = header.index("region"), header.index("amount")
        for row in reader:
            amount = float(row[amount_at])
            acc = totals.get(row[region_at])
            if acc is None:
                totals[row[region_at]] = [1, amount]
            else:
                acc[0] += 1
                acc[1] += amount
    return [[region, n, total, total / n] for region, (n, total) in sorted(totals.items())]


def timed_csv_loop(path):
    start = time.perf_counter()
    rows = csv_loop(path)
    return {"ms": (time.perf_counter() - start) * 1000, "rows": rows}


# --- native (CPython) ----------------------------------------------------------------------------


def _native_run(kernel, query):
    import asyncio

    start = time.perf_counter()
    result = asyncio.run(kernel.run_sql(query))
    total = (time.perf_counter() - start) * 1000
    if result["status"] != "ok":
        raise RuntimeError(f"SQL run failed: {result}")
    return {"total": total, **take_timings()}


def native_main(data_dir, repeat, caps_json):
    """Per repetition: a fresh engine, a first run (loads the CSV, then queries), a second run
    (table already loaded), and the csv loop. Prints one JSON object."""
    import sqlite3

    from runpad.kernel import Kernel

    configure(caps_json)
    kernel = Kernel(emit=lambda out: json.dumps(out, allow_nan=False), caps=CAPS, data_dir=data_dir, output_dir=data_dir + "-output")
    runs = []
    for _ in range(repeat):
        fresh_engine()
        first = _native_run(kernel, QUERY)
        second = _native_run(kernel, QUERY)
        second["bareQuery"] = bare_query()
        loop = timed_csv_loop(f"{data_dir}/sales.csv")
        runs.append({"first": first, "second": second, "csvLoopMs": loop["ms"]})
    print(json.dumps({
        "query": QUERY,
        "python": sys.version.split()[0],
        "sqlite": sqlite3.sqlite_version,
        "runs": runs,
        "sqlRows": sql_rows(kernel),
        "csvRows": loop["rows"],
    }))


if __name__ == "__main__":
    native_main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
