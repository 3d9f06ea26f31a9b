/**
 * Arrow IPC files (`.arrow`, Feather v2 `.feather`, and the IPC stream format) with apache-arrow:
 * the columns as the SQL types DuckDB gets from Arrow, and the rows. DuckDB itself receives the
 * file's record batches unchanged (lib/targets/sql/engine/offline-tables.ts), so its types are Arrow's own;
 * this reader serves the preview the model is told.
 */
import 'client-only';
import { tableFromIPC, Type, type DataType, type Table } from 'apache-arrow';
import { cellOf, FormatReadError, type Cell, type SqlType, type TableColumn } from './table.client';

/** The preview's kind of an Arrow column (nested and other types are shown as text). */
export function arrowSqlType(type: DataType): SqlType {
  switch (type.typeId) {
    case Type.Int:
      return 'BIGINT';
    case Type.Float:
    case Type.Decimal:
      return 'DOUBLE';
    case Type.Bool:
      return 'BOOLEAN';
    case Type.Date:
      return 'DATE';
    case Type.Timestamp:
      return 'TIMESTAMP';
    case Type.Dictionary:
      return arrowSqlType((type as DataType<Type.Dictionary> & { dictionary: DataType }).dictionary);
    default:
      return 'VARCHAR';
  }
}

/** The IPC file (or stream) as an Arrow table; a file that is not Arrow says so. */
export function readArrowTable(bytes: Uint8Array): Table {
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch (error) {
    throw new FormatReadError('unreadable', 'arrow', error instanceof Error ? error.message : String(error));
  }
  if (table.schema.fields.length === 0) throw new FormatReadError('empty', 'arrow', 'no columns');
  return table;
}

export function arrowColumns(table: Table): TableColumn[] {
  return table.schema.fields.map((field) => ({ name: field.name, type: arrowSqlType(field.type) }));
}

/** A value as the reader's cell: dates and timestamps arrive as epoch milliseconds. */
function plainCell(value: unknown, type: SqlType): Cell {
  if ((type === 'DATE' || type === 'TIMESTAMP') && (typeof value === 'number' || typeof value === 'bigint')) return new Date(Number(value));
  if (value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') return cellOf(value.toJSON(), type);
  return cellOf(value, type);
}

/** Rows `[0, limit)` as cells, one record batch at a time. */
export function arrowRows(table: Table, columns: readonly TableColumn[], limit = table.numRows): Cell[][] {
  const rows: Cell[][] = [];
  const vectors = columns.map((_, i) => table.getChildAt(i));
  for (let row = 0; row < Math.min(limit, table.numRows); row += 1) rows.push(columns.map((column, i) => plainCell(vectors[i]?.get(row) ?? null, column.type)));
  return rows;
}
