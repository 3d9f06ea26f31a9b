/**
 * A query's Arrow result as the JSON the Python side reads (lib/targets/python/engine/runpad/duckdb_bridge.py):
 * column names, one kind per column, and rows as arrays. Values become what JSON can carry without
 * loss the Python side cannot undo: 64-bit integers as numbers when exact, else as decimal strings;
 * dates and timestamps as ISO text (Python turns them back into date/datetime).
 */
import type { Table, Vector } from 'apache-arrow';

export type ColumnKind = 'integer' | 'number' | 'boolean' | 'string' | 'date' | 'datetime' | 'other';

export type QueryResultJson = {
  columns: string[];
  kinds: ColumnKind[];
  /** DuckDB's type as Arrow names it (shown in the table's schema, for the model). */
  types: string[];
  rows: unknown[][];
};

/** Arrow type ids (apache-arrow's `Type` enum), written out so this file needs no runtime import. */
const ARROW_TYPE = {
  Int: 2,
  Float: 3,
  Bool: 6,
  Decimal: 7,
  Date: 8,
  Time: 9,
  Timestamp: 10,
  Utf8: 5,
  LargeUtf8: 20,
  Dictionary: -1,
} as const;

function kindOf(typeId: number): ColumnKind {
  switch (typeId) {
    case ARROW_TYPE.Int:
      return 'integer';
    case ARROW_TYPE.Float:
    case ARROW_TYPE.Decimal:
      return 'number';
    case ARROW_TYPE.Bool:
      return 'boolean';
    case ARROW_TYPE.Utf8:
    case ARROW_TYPE.LargeUtf8:
      return 'string';
    case ARROW_TYPE.Date:
      return 'date';
    case ARROW_TYPE.Timestamp:
      return 'datetime';
    default:
      return 'other';
  }
}

function isoOf(milliseconds: number, kind: 'date' | 'datetime'): string {
  const iso = new Date(milliseconds).toISOString(); // 2024-01-31T12:00:00.000Z
  if (kind === 'date') return iso.slice(0, 10);
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}

function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    const asNumber = Number(value);
    return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  if (typeof value === 'object' && value && 'toJSON' in value && typeof value.toJSON === 'function') {
    return JSON.parse(JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? plain(inner) : inner)));
  }
  if (typeof value === 'object' && value && Symbol.iterator in value) {
    return Array.from(value as Iterable<unknown>, plain);
  }
  return String(value);
}

function valueOf(vector: Vector, index: number, kind: ColumnKind): unknown {
  const value: unknown = vector.get(index);
  if (value === null || value === undefined) return null;
  if (kind === 'date' || kind === 'datetime') {
    const ms = value instanceof Date ? value.getTime() : Number(value);
    return Number.isFinite(ms) ? isoOf(ms, kind) : null;
  }
  return plain(value);
}

export function resultOf(table: Table): QueryResultJson {
  const fields = table.schema.fields;
  // A dictionary-encoded column (DuckDB's ENUM) has the kind of its values.
  const kinds = fields.map((field) =>
    kindOf(field.typeId === ARROW_TYPE.Dictionary ? (field.type as { dictionary: { typeId: number } }).dictionary.typeId : field.typeId),
  );
  const vectors = fields.map((_field, i) => table.getChildAt(i));
  const rows: unknown[][] = [];
  for (let row = 0; row < table.numRows; row += 1) {
    rows.push(vectors.map((vector, i) => (vector ? valueOf(vector, row, kinds[i]) : null)));
  }
  return { columns: fields.map((field) => field.name), kinds, types: fields.map((field) => String(field.type)), rows };
}
