/**
 * Tests only: a stand-in `duckdb` Python module for running exported notebooks and scripts under
 * CPython here, where DuckDB's wheel cannot be installed. It records every statement the exported
 * code sends (`FAKE_DUCKDB_LOG`) and answers each `sql()` with a numbered relation, so a test checks
 * what the export asks DuckDB to do: which files become which tables, and the exact SQL text.
 */
export const FAKE_DUCKDB_MODULE = String.raw`import sys, types
FAKE_DUCKDB_LOG = []
class _FakeRelation:
    def __init__(self, n):
        self.n = n
    columns = ["result"]
    def df(self):
        raise ImportError("no pandas in this stand-in")
    def fetchall(self):
        return [(f"<duckdb result {self.n}>",)]
    def __repr__(self):
        return f"<duckdb result {self.n}>"
class _FakeConnection:
    def execute(self, statement, parameters=None):
        FAKE_DUCKDB_LOG.append(statement if parameters is None else [statement, parameters])
        return self
    def sql(self, query):
        FAKE_DUCKDB_LOG.append(query)
        return _FakeRelation(len(FAKE_DUCKDB_LOG))
_fake = types.ModuleType("duckdb")
_fake.Error = type("Error", (Exception,), {})
_fake.connect = lambda path=":memory:": _FakeConnection()
sys.modules["duckdb"] = _fake
`;
