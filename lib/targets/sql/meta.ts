/**
 * The SQL target (server-safe). SQL runs on DuckDB-wasm inside the conversation's Python worker
 * (lib/targets/sql/engine/, lib/targets/python/engine/runpad/sql.py), so SQL and Python share one world: the same
 * /data tables, `_sql` and `sql()`; its runner is the interpreter's, in SQL mode.
 */
import { DATA_FORMATS_PROMPT } from '@/lib/files/formats/prompt';
import { SQL_SETUP_SOURCE, sqlCellSource, sqlTableNames } from './notebook';
import { codeInputSchema, defineTarget } from '../target';

export const sql = defineTarget({
  id: 'sql',
  toolName: 'sql',
  inputSchema: codeInputSchema,
  name: 'SQL',
  label: 'SQL · DuckDB',
  fence: 'sql',
  // 'sqlite': models used to SQLite tag blocks so; DuckDB runs that SQL too.
  blockTags: ['sql', 'duckdb', 'sqlite'],
  description:
    "Run SQL in the user's browser with DuckDB, in the same interpreter as Python. " +
    'Every file in /data is a table named after its file (sales.csv → sales; lowercase, other characters → _), read by DuckDB (its CSV sniffer infers the types). ' +
    "DuckDB dialect (PostgreSQL-like): date_trunc('month', d), strftime, quantile_cont, window functions, QUALIFY, read_csv('/data/x.csv'). " +
    'The result is shown as a table and is `_sql` in Python afterwards; Python can also call sql("…") (a pandas DataFrame when pandas is loaded, else a table with .columns and .rows) ' +
    'and sql_table(name, rows_or_csv_path) to make a table from its own data. Several statements separated by ; run in order; the last result is shown. ' +
    `${DATA_FORMATS_PROMPT}.`,
  prompt:
    'runs SQL (DuckDB dialect) in the same interpreter: every file in /data is a table named after its file; its result is `_sql` in Python afterwards, and Python can call sql("…") on the same tables. Prefer it for filtering, grouping and joining tabular files.',
  mimeTypes: ['application/vnd.dataresource+json', 'text/plain'],
  stateful: true,
  engine: 'pyodide',
  replay: 'replay',
  notebook: {
    readsFiles: true,
    cellSource: sqlCellSource,
    // A script run with python3 shows nothing of a bare expression.
    scriptSource: (query) => `print(${sqlCellSource(query)})`,
    setup: {
      name: 'sql-setup',
      source: SQL_SETUP_SOURCE,
      intro:
        'SQL cells call `_runpad_sql`, and Python can call `sql()` and `sql_table()` and read `_sql`, as in Runpad: a setup cell defines them. Each query runs in DuckDB (`pip install duckdb`, the engine Runpad uses) over every CSV/TSV/JSON/Parquet file in `./data/`, each a table; an Excel (.xlsx) or Arrow file is read by pandas (`pip install pandas openpyxl`, or `pyarrow`) into one, with no DuckDB extension to download.',
      namesOfFiles: sqlTableNames,
      usedBy: (code, targetId) => targetId === 'python' && /\b(sql|sql_table)\s*\(|\b_sql\b/.test(code),
      requires: [{ module: 'duckdb', why: 'the SQL cells and sql()' }],
    },
  },
  // It runs in Python's worker (the Python target declares it).
  workers: [],
  diagrams: false,
});
