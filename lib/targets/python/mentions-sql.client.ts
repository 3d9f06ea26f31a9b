/**
 * Whether Python code may call `sql(…)` (or `sql_table(…)`): then DuckDB is started before the
 * code runs, since Python calls it synchronously and cannot wait for it to load.
 */
import 'client-only';
const SQL_CALL = /\bsql(?:_table)?\s*\(/;

export function mentionsSql(code: string): boolean {
  return SQL_CALL.test(code);
}
