/**
 * JSON as a table: an array of objects (or an object holding exactly one such array), or JSON Lines
 * (one value per line). Column types are inferred as DuckDB's JSON reader does for these values:
 * integers, numbers, booleans, ISO dates and timestamps, else text (nested values as JSON text).
 */
import 'client-only';
import { cellOf, FormatReadError, inferSqlType, uniqueNames, type Cell, type SqlType, type TableColumn } from './table.client';

type JsonFormat = 'json' | 'jsonl';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : { value };
}

/** The records of a JSON or JSON Lines text. */
export function jsonRecords(text: string, format: JsonFormat): Record<string, unknown>[] {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (format === 'jsonl') {
    const records: Record<string, unknown>[] = [];
    const lines = body.split(/\r?\n/);
    for (const [index, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        records.push(recordOf(JSON.parse(line)));
      } catch (error) {
        throw new FormatReadError('unreadable', format, `line ${index + 1}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return records;
  }
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new FormatReadError('unreadable', format, error instanceof Error ? error.message : String(error));
  }
  if (isRecord(document)) {
    const arrays = Object.values(document).filter((value) => Array.isArray(value) && value.length > 0 && value.every(isRecord));
    if (arrays.length !== 1) throw new FormatReadError('not-records', format, 'found one object without a single array of objects in it');
    document = arrays[0];
  }
  if (!Array.isArray(document)) throw new FormatReadError('not-records', format, `found a ${typeof document}`);
  return document.map(recordOf);
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * DuckDB's type for a JSON field, as its JSON reader detects it: BIGINT, DOUBLE, BOOLEAN, DATE,
 * TIMESTAMP or VARCHAR for scalars of one kind, a LIST of the elements' type for arrays, a STRUCT of
 * the keys' types for objects, and JSON for values of different kinds (or none but nulls).
 */
export function jsonFieldType(values: readonly unknown[]): string {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return 'JSON';
  if (present.every(Array.isArray)) return `${jsonFieldType(present.flat())}[]`;
  if (present.every(isRecord)) {
    const keys = [...new Set(present.flatMap((record) => Object.keys(record)))];
    if (keys.length === 0) return 'JSON';
    return `STRUCT(${keys.map((key) => `${quoteName(key)} ${jsonFieldType(present.map((record) => record[key]))}`).join(', ')})`;
  }
  const kinds = new Set(present.map((value) => (typeof value === 'number' ? 'number' : typeof value)));
  if (kinds.size > 1) return 'JSON';
  return inferSqlType(present);
}

/**
 * A field's kind of cell and DuckDB's type: nested values travel as JSON text. DuckDB's JSON type
 * is its json extension's: without it, a field of mixed values is VARCHAR holding the same JSON
 * text (`1`, `"t2"`), as the extension keeps it.
 */
function jsonColumn(name: string, values: readonly unknown[]): TableColumn & { json: boolean } {
  const detected = jsonFieldType(values);
  const json = detected === 'JSON';
  const sqlType = detected.replace(/(?<!")\bJSON\b(?!")/g, 'VARCHAR');
  const scalar: readonly string[] = ['BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'VARCHAR'];
  if (scalar.includes(sqlType)) return { name, type: sqlType as SqlType, json };
  return { name, type: 'VARCHAR', sqlType, json };
}

function jsonCell(value: unknown, column: TableColumn & { json: boolean }): Cell {
  if (column.json && value !== null && value !== undefined) return JSON.stringify(value);
  return cellOf(value, column.type);
}

/** Records as typed columns and rows (keys in order of first appearance). */
export function recordsTable(records: readonly Record<string, unknown>[], format: JsonFormat): { columns: TableColumn[]; rows: Cell[][] } {
  if (records.length === 0) throw new FormatReadError('empty', format, '');
  const keys = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const names = uniqueNames(keys);
  const fields = keys.map((key, i) => jsonColumn(names[i], records.map((record) => record[key])));
  const rows = records.map((record) => keys.map((key, i) => jsonCell(record[key], fields[i])));
  return { columns: fields.map(({ name, type, sqlType }) => (sqlType ? { name, type, sqlType } : { name, type })), rows };
}
