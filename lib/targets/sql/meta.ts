/**
 * The SQL target (server-safe). For now SQL runs in the conversation's Python interpreter
 * (SQLite, the standard library's sqlite3), so it shares Python's state; its runner says so.
 */
import { SQL_SETUP_SOURCE, sqlCellSource, sqlTableNames } from '@/lib/notebook/sql-setup';
import { codeInputSchema, defineTarget } from '../target';

export const sql = defineTarget({
  id: 'sql',
  toolName: 'sql',
  inputSchema: codeInputSchema,
  name: 'SQL',
  label: 'SQL · SQLite',
  fence: 'sql',
  blockTags: ['sql', 'sqlite', 'duckdb'],
  description:
    "Run SQL in the user's browser, in the same interpreter as Python (SQLite, the sqlite3 of the standard library). " +
    'Every file in /data is a table named after its file (sales.csv → sales; lowercase, other characters → _). ' +
    'SQLite dialect: strftime for dates, || for concatenation. The result is shown as a table and is `_sql` in Python afterwards ' +
    '(a pandas DataFrame when pandas is loaded, else a list of dicts). Several statements separated by ; run in order; the last result is shown.',
  prompt:
    'runs SQL (SQLite dialect) in the same interpreter: every file in /data is a table named after its file; its result is `_sql` in Python afterwards. Prefer it for filtering, grouping and joining tabular files.',
  mimeTypes: ['application/vnd.dataresource+json', 'text/plain'],
  stateful: true,
  engine: 'pyodide',
  replay: 'replay',
  notebook: {
    cellSource: sqlCellSource,
    // A script run with python3 shows nothing of a bare expression.
    scriptSource: (query) => `print(${sqlCellSource(query)})`,
    setup: {
      name: 'sql-setup',
      source: SQL_SETUP_SOURCE,
      intro:
        "SQL cells call `_runpad_sql`, defined by the first code cell: it runs each query with Python's `sqlite3` over every CSV/TSV file in `./data/` (or else `/data/`), each loaded as a table.",
      namesOfFiles: sqlTableNames,
    },
  },
});
