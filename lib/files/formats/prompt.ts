/**
 * How the model reads each data format in this install, said once and used by the system prompt
 * and the `sql` tool's description: every format works without DuckDB's extensions (the kept
 * readers, lib/files/formats), so the same SQL works offline and with a mirror.
 */
export const DATA_FORMATS_PROMPT =
  "CSV, TSV, JSON (an array of objects), JSON Lines, Parquet, Arrow IPC/Feather (.arrow, .feather) and Excel .xlsx (its first sheet, and each sheet by name with read_xlsx('/data/x.xlsx', sheet = 'Sheet2'); a sheet's first row is its header) are all tables: query one by its table name or by its path, as in SELECT * FROM '/data/x.parquet', read_parquet('/data/x.parquet'), read_json_auto('/data/x.json') or read_xlsx('/data/x.xlsx')";
