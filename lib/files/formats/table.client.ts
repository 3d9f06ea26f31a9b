/**
 * A table read by one of the kept JavaScript readers (Parquet, JSON, Excel): column names with the
 * SQL type DuckDB gets, and rows of plain values. Shared by the Python worker (which hands the rows
 * to DuckDB when its extension for the format cannot load) and the page (the preview the model is
 * told). Pure: no DOM, no worker, no DuckDB.
 */

/** The DuckDB types the readers produce; everything else is text. */
import 'client-only';
export type SqlType = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP' | 'VARCHAR';
export type Cell = null | number | bigint | boolean | string | Date;
/**
 * `type`: the kind of value a cell holds (and how it is written for DuckDB's CSV reader);
 * `sqlType`: DuckDB's own type for the column when it differs from `type` (INTEGER, DECIMAL(12,2),
 * TIMESTAMP WITH TIME ZONE, INTEGER[], STRUCT(…), JSON…), the type native DuckDB gives the file.
 */
export type TableColumn = {
  name: string;
  type: SqlType;
  sqlType?: string;
  /** A MAP's entries as a list of key/value structs (`STRUCT("key" K, "value" V)[]`): how its cells' text is cast before `map_from_entries`. */
  entriesType?: string;
};

/** The type DuckDB gives the column. */
export function declaredType(column: TableColumn): string {
  return column.sqlType ?? column.type;
}
/** Rows come in chunks (a Parquet row group, or the whole of a JSON or Excel file). */
export type TableChunk = { rows: Cell[][] };

export type TabularFormat = 'parquet' | 'json' | 'jsonl' | 'xlsx' | 'arrow';

/** Why a file could not be read as a table: a code, never words (see `formatFailureText`). */
export type FormatFailureKind = 'unreadable' | 'not-records' | 'empty';

export class FormatReadError extends Error {
  constructor(
    readonly kind: FormatFailureKind,
    readonly format: TabularFormat,
    /** The reader's own message (e.g. hyparquet's), kept for the detail. */
    readonly detail: string,
  ) {
    super(`${format}:${kind}: ${detail}`);
    this.name = 'FormatReadError';
  }
}

const FORMAT_NAMES: Record<TabularFormat, string> = { parquet: 'Parquet', json: 'JSON', jsonl: 'JSON Lines', xlsx: 'Excel (.xlsx)', arrow: 'Arrow IPC (Feather)' };

export function formatName(format: TabularFormat): string {
  return FORMAT_NAMES[format];
}

/** A reader's failure in words a person can act on, naming the file. */
export function formatFailureText(fileName: string, error: FormatReadError): string {
  const name = formatName(error.format);
  const detail = error.detail.split('\n')[0].slice(0, 200);
  switch (error.kind) {
    case 'unreadable':
      return `${fileName} could not be read as a ${name} file: it looks damaged or is not ${name} (${detail}). Save or export it again and drop the new file.`;
    case 'not-records':
      return `${fileName} is not a table: a ${name} file must hold an array of objects (or one object per line); ${detail}.`;
    case 'empty':
      return `${fileName} has no rows to make a table of${detail ? ` (${detail})` : ''}.`;
  }
}

/** `name`, `name_2`, … : unique, non-empty column names (spreadsheets repeat and omit headers). */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw, index) => {
    const base = raw.trim() || `column${index + 1}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base}_${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

function isMidnight(date: Date): boolean {
  return date.getUTCHours() === 0 && date.getUTCMinutes() === 0 && date.getUTCSeconds() === 0 && date.getUTCMilliseconds() === 0;
}

/**
 * The type of a column of untyped values (JSON, spreadsheet cells): integers, numbers, booleans,
 * dates and timestamps (Date objects, or ISO text as DuckDB's JSON reader detects it), else text.
 * Nulls do not count; a column of nothing but nulls is text.
 */
export function inferSqlType(values: Iterable<unknown>): SqlType {
  let integer = true;
  let number = true;
  let boolean = true;
  let date = true;
  let timestamp = true;
  let seen = false;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    seen = true;
    const isInteger = (typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint';
    integer &&= isInteger;
    number &&= isInteger || (typeof value === 'number' && !Number.isNaN(value));
    boolean &&= typeof value === 'boolean';
    const isDateValue = value instanceof Date && !Number.isNaN(value.getTime());
    const text = typeof value === 'string' ? value : null;
    date &&= (isDateValue && isMidnight(value)) || (text !== null && DATE.test(text));
    timestamp &&= isDateValue || (text !== null && (TIMESTAMP.test(text) || DATE.test(text)));
    if (!integer && !number && !boolean && !date && !timestamp) return 'VARCHAR';
  }
  if (!seen) return 'VARCHAR';
  if (integer) return 'BIGINT';
  if (number) return 'DOUBLE';
  if (boolean) return 'BOOLEAN';
  if (date) return 'DATE';
  if (timestamp) return 'TIMESTAMP';
  return 'VARCHAR';
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? '';
}

/** A value of a column of type `type`, as the one cell type it has (text for what does not fit). */
export function cellOf(value: unknown, type: SqlType): Cell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'BIGINT':
      return typeof value === 'bigint' || typeof value === 'number' ? value : null;
    case 'DOUBLE':
      return typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : null;
    case 'BOOLEAN':
      return typeof value === 'boolean' ? value : null;
    case 'DATE':
    case 'TIMESTAMP':
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
      if (typeof value === 'string') {
        // Text with an offset is an instant: kept as UTC; without one it is taken as written.
        const instant = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? new Date(value) : new Date(`${value.replace(' ', 'T')}${DATE.test(value) ? 'T00:00:00' : ''}Z`);
        return Number.isNaN(instant.getTime()) ? null : instant;
      }
      return null;
    case 'VARCHAR':
      if (typeof value === 'string') return value;
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
      if (value instanceof Uint8Array) return Array.from(value, (byte) => byte.toString(16).padStart(2, '0')).join('');
      if (typeof value === 'object') return jsonText(value);
      return String(value);
  }
}

function isoTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '');
}

/** A cell as the text DuckDB reads for its type: the display the preview shows, and the CSV field. */
export function cellText(cell: Cell, type: SqlType): string {
  if (cell === null) return '';
  if (cell instanceof Date) return type === 'DATE' ? cell.toISOString().slice(0, 10) : isoTimestamp(cell);
  if (typeof cell === 'number') {
    if (Number.isNaN(cell)) return 'nan';
    if (!Number.isFinite(cell)) return cell > 0 ? 'inf' : '-inf';
  }
  return String(cell);
}

/**
 * Rows as CSV with a header, every text quoted (so an empty text is "" and a null is an empty
 * field: DuckDB reads them apart with allow_quoted_nulls = false).
 */
export function chunkToCsv(columns: readonly TableColumn[], rows: readonly Cell[][], header: boolean): string {
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const lines: string[] = [];
  if (header) lines.push(columns.map((column) => quote(column.name)).join(','));
  for (const row of rows) {
    lines.push(
      columns
        .map((column, index) => {
          const cell = row[index] ?? null;
          if (cell === null) return '';
          const text = cellText(cell, column.type);
          return column.type === 'VARCHAR' ? quote(text) : text;
        })
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}
