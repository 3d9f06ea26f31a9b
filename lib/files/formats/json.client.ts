/**
 * JSON as a table: an array of objects (or an object holding exactly one such array), or JSON Lines
 * (one value per line). Column types are inferred as DuckDB's JSON reader does for these values:
 * integers, numbers, booleans, ISO dates and timestamps, else text (nested values as JSON text).
 */
import 'client-only';
import { cellOf, FormatReadError, inferSqlType, uniqueNames, type Cell, type TableColumn } from './table.client';

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

/** Records as typed columns and rows (keys in order of first appearance). */
export function recordsTable(records: readonly Record<string, unknown>[], format: JsonFormat): { columns: TableColumn[]; rows: Cell[][] } {
  if (records.length === 0) throw new FormatReadError('empty', format, '');
  const keys = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const names = uniqueNames(keys);
  const columns = keys.map((key, i) => ({ name: names[i], type: inferSqlType(records.map((record) => record[key])) }));
  const rows = records.map((record) => keys.map((key, i) => cellOf(record[key], columns[i].type)));
  return { columns, rows };
}
