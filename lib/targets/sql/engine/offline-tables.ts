/**
 * Parquet, JSON and Excel files as DuckDB tables when DuckDB's extension for the format cannot load
 * (offline, no mirror): a kept JavaScript reader (lib/files/formats/) reads the file, and its
 * columns go into DuckDB as Arrow record batches (no text in between), one batch at a time (a
 * Parquet row group), each cast on arrival to DuckDB's own type for its column. The table is named by the
 * file's path, so `FROM '/data/x.parquet'` finds it as written; table macros named like the
 * extension's functions (`read_parquet`, `read_json_auto`, `read_xlsx`, …) read the same tables.
 *
 * Bundled apart from the Python worker (public/workers/offline-tables.mjs) and imported on first
 * need: the readers (exceljs above all) stay off the interpreter's start.
 */
// First: exceljs (below) must find setImmediate as it loads in the locked-down worker.
import './set-immediate';
import type { AsyncBuffer } from 'hyparquet';
import { tableToIPC, type Table } from 'apache-arrow';
import { arrowColumns, readArrowTable } from '@/lib/files/formats/arrow.client';
import { duckdbTypeOfArrow } from '@/lib/files/formats/arrow-batch.client';
export { bytesAsFile } from '@/lib/files/formats/parquet.client';
import { openTable, type TableReader } from '@/lib/files/formats/read-table.client';
import { declaredType, FormatReadError, formatFailureText, type TableColumn, type TabularFormat } from '@/lib/files/formats/table.client';

/** What the import needs of DuckDB: statements, and buffers its CSV reader can read by name. */
export type ImportTarget = {
  query(sql: string): void;
  registerBuffer(name: string, bytes: Uint8Array): void;
  dropBuffer(name: string): void;
  /** Creates table `table` from an Arrow IPC stream, its types Arrow's own; with `create` false, appends the stream's rows to it. */
  insertArrow(table: string, stream: Uint8Array, create?: boolean): void;
};

export type ImportAnswer = { ok: true; rows: number; columns: TableColumn[] } | { ok: false; message: string };

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The extension's table functions and the named options the model may pass them (accepted, unused). */
const MACROS: Record<TabularFormat, { names: string[]; options: string[] }> = {
  parquet: { names: ['read_parquet', 'parquet_scan'], options: ['binary_as_string', 'filename', 'file_row_number', 'hive_partitioning', 'union_by_name'] },
  json: {
    names: ['read_json', 'read_json_auto', 'read_ndjson', 'read_ndjson_auto'],
    options: ['format', 'records', 'columns', 'auto_detect', 'sample_size', 'maximum_object_size', 'ignore_errors', 'dateformat', 'timestampformat', 'union_by_name', 'compression'],
  },
  jsonl: { names: [], options: [] },
  arrow: { names: [], options: [] },
  xlsx: { names: ['read_xlsx'], options: ['sheet', 'header', 'all_varchar', 'ignore_errors', 'range', 'stop_at_empty', 'empty_as_varchar'] },
};

/**
 * The macros that make `read_parquet('/data/x.parquet')` (and the JSON and Excel functions) read
 * the table named by that path, and `read_xlsx(path, sheet = 'Costs')` the sheet's table
 * (`<path>#<sheet>`). Only for a format whose extension did not load: a loaded extension's own
 * functions are never shadowed.
 */
export function readerMacros(format: TabularFormat): string[] {
  const { names, options } = MACROS[format === 'jsonl' ? 'json' : format];
  const parameters = ['path', ...options.map((option) => `${option} := NULL`)].join(', ');
  const table = format === 'xlsx' ? `CASE WHEN sheet IS NULL THEN path ELSE path || '${SHEET_MARK}' || sheet END` : 'path';
  return names.map((name) => `CREATE OR REPLACE TEMP MACRO ${name}(${parameters}) AS TABLE SELECT * FROM query_table('"' || replace(${table}, '"', '""') || '"')`);
}

/** Between a workbook's path and a sheet's name in the name of the sheet's table. */
const SHEET_MARK = '#';

let scratch = 0;

/**
 * Reads `file` with the kept reader for `format` into table `path` (replacing it); an Excel
 * workbook's every sheet also into `<path>#<sheet>` (the first sheet's is a view of `path`).
 * Never throws for a file that cannot be read: the answer says why, in words naming the file.
 */
export async function importTable(target: ImportTarget, path: string, format: TabularFormat, file: AsyncBuffer): Promise<ImportAnswer> {
  const fileName = path.split('/').pop() ?? path;
  if (format === 'arrow') return importArrow(target, path, fileName, file);
  let reader: TableReader;
  try {
    reader = await openTable(format, file);
  } catch (error) {
    if (error instanceof FormatReadError) return { ok: false, message: formatFailureText(fileName, error) };
    throw error;
  }
  const answer = await fillTable(target, path, format, fileName, reader);
  if (!answer.ok) return answer;
  const [first, ...others] = reader.sheetTables?.() ?? [];
  if (first) target.query(`CREATE OR REPLACE VIEW ${quoteIdentifier(`${path}${SHEET_MARK}${first.name}`)} AS SELECT * FROM ${quoteIdentifier(path)}`);
  for (const sheet of others) {
    const sheetAnswer = await fillTable(target, `${path}${SHEET_MARK}${sheet.name}`, format, `${fileName} (sheet ${sheet.name})`, sheet.reader);
    if (!sheetAnswer.ok) return sheetAnswer;
  }
  for (const statement of readerMacros(format)) target.query(statement);
  return answer;
}

/**
 * An Arrow IPC file (or stream) into table `path`: its record batches handed to DuckDB as they are
 * (DuckDB's Arrow import: the types are the file's, nested ones included).
 */
async function importArrow(target: ImportTarget, path: string, fileName: string, file: AsyncBuffer): Promise<ImportAnswer> {
  let table;
  try {
    table = readArrowTable(new Uint8Array(await file.slice(0, file.byteLength)));
  } catch (error) {
    if (error instanceof FormatReadError) return { ok: false, message: formatFailureText(fileName, error) };
    throw error;
  }
  target.query(`DROP TABLE IF EXISTS ${quoteIdentifier(path)}`);
  target.insertArrow(path, tableToIPC(table, 'stream'));
  return { ok: true, rows: table.numRows, columns: arrowColumns(table) };
}

/** The statement's expression that gives batch column `c<index>` DuckDB's own type for `column`. */
export function arrivalExpression(column: TableColumn, index: number): string {
  if (column.entriesType) return `map_from_entries(CAST(c${index} AS ${column.entriesType}))`;
  return `CAST(c${index} AS ${declaredType(column)})`;
}

/** Whether every column of `batch` lands in DuckDB as `columns`' declared type (then no cast is needed). */
function landsAsDeclared(batch: Table, columns: readonly TableColumn[]): boolean {
  return batch.schema.fields.every((field, i) => columns[i] !== undefined && !columns[i].entriesType && duckdbTypeOfArrow(field.type) === declaredType(columns[i]));
}

/**
 * Creates table `path` with `reader`'s columns and inserts its Arrow record batches, one at a
 * time: a batch whose columns all arrive as the table's types is appended as it is; any other
 * lands in a scratch table as Arrow's types and is cast into the table.
 */
async function fillTable(target: ImportTarget, path: string, format: TabularFormat, fileName: string, reader: TableReader): Promise<ImportAnswer> {
  const { columns } = reader;
  if (columns.length === 0) return { ok: false, message: formatFailureText(fileName, new FormatReadError('empty', format, 'no columns')) };
  const table = quoteIdentifier(path);
  target.query(`CREATE OR REPLACE TABLE ${table} (${columns.map((column) => `${quoteIdentifier(column.name)} ${declaredType(column)}`).join(', ')})`);
  const select = columns.map(arrivalExpression).join(', ');
  let rows = 0;
  try {
    await reader.batches((batch) => {
      if (batch.numRows === 0) return;
      rows += batch.numRows;
      if (landsAsDeclared(batch, columns)) return target.insertArrow(path, tableToIPC(batch, 'stream'), false);
      scratch += 1;
      const name = `runpad_import_${scratch}`;
      target.insertArrow(name, tableToIPC(batch, 'stream'));
      try {
        target.query(`INSERT INTO ${table} SELECT ${select} FROM ${quoteIdentifier(name)}`);
      } finally {
        target.query(`DROP TABLE IF EXISTS ${quoteIdentifier(name)}`);
      }
    });
  } catch (error) {
    target.query(`DROP TABLE IF EXISTS ${table}`);
    if (error instanceof FormatReadError) return { ok: false, message: formatFailureText(fileName, error) };
    throw error;
  }
  return { ok: true, rows, columns };
}
