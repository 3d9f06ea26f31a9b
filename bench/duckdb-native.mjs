// Native DuckDB (@duckdb/node-api) on one thread: the same-run baseline of bench/duckdb.mjs (DuckDB-wasm
// in Node) and bench/duckdb-browser.mjs (the app in Chromium). Same statements as the app runs: a
// /data file becomes a table through read_csv (lib/targets/python/engine/runpad/sql.py), then the GROUP BY.

/** The GROUP BY every bench runs, over the sales CSV of bench/targets-data.mjs. */
export const groupBy = (table) => `SELECT region, count(*) AS n, sum(amount) AS total FROM ${table} GROUP BY region ORDER BY region`;
export const QUERY = groupBy('sales');
export const loadCsv = (table, file) => `CREATE OR REPLACE TABLE ${table} AS SELECT * FROM read_csv('${file.replaceAll("'", "''")}')`;

const time = async (task) => {
  const start = performance.now();
  const value = await task();
  return [performance.now() - start, value];
};

/**
 * One fresh in-memory database: its start (instance + connection), the first run on the CSV (load
 * + GROUP BY, with the rows read back) and a second run on the loaded table.
 */
export async function nativeRun(csvPath, table = 'sales') {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const [coldStartMs, conn] = await time(async () => (await DuckDBInstance.create(':memory:', { threads: '1' })).connect());
  const [firstMs, first] = await time(async () => {
    await conn.run(loadCsv(table, csvPath));
    return (await conn.runAndReadAll(groupBy(table))).getRowObjectsJson();
  });
  const [secondMs] = await time(async () => (await conn.runAndReadAll(groupBy(table))).getRowObjectsJson());
  conn.closeSync();
  return { coldStartMs, firstMs, secondMs, first };
}
