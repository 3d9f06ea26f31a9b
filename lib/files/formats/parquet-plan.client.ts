/**
 * How each top-level Parquet column travels to DuckDB as Arrow (lib/files/formats/arrow-batch.client.ts):
 * the transport for DuckDB's type of it, and what hyparquet is to hand over for its values.
 */
import 'client-only';
import type { SchemaElement, SchemaTree } from 'hyparquet';
import type { Transport } from './arrow-batch.client';
import type { TableColumn } from './table.client';

/**
 * How a top-level column travels to DuckDB as Arrow: its transport, whether hyparquet is to hand
 * over its stored values as they are (`raw`: dates as days, timestamps and times as integers of
 * their unit, decimals unscaled, intervals as their 12 bytes: exact, and no Date per value), and
 * what each value becomes before it travels.
 */
export type ColumnPlan = { name: string; transport: Transport; raw: boolean; prepare?: (value: unknown) => unknown; text?: (value: unknown) => unknown };

const TRANSPORT_OF_TYPE: Record<string, Transport['kind']> = {
  TINYINT: 'int8',
  SMALLINT: 'int16',
  INTEGER: 'int32',
  UTINYINT: 'uint8',
  USMALLINT: 'uint16',
  UINTEGER: 'uint32',
  BIGINT: 'int64',
  UBIGINT: 'uint64',
  FLOAT: 'float',
  DOUBLE: 'double',
  BOOLEAN: 'bool',
  BLOB: 'blob',
};

function bigintOf(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(Math.trunc(Number(value)));
}

/** A value stored in `unit` as microseconds. */
function toMicros(unit: string): ((value: unknown) => unknown) | undefined {
  if (unit === 'MILLIS') return (value) => (value === null || value === undefined ? null : bigintOf(value) * 1000n);
  if (unit === 'NANOS') return (value) => (value === null || value === undefined ? null : bigintOf(value) / 1000n);
  return undefined;
}

/** Parquet's INTERVAL (months, days, milliseconds: little-endian unsigned) as text DuckDB casts. */
export function intervalText(value: unknown): unknown {
  if (!(value instanceof Uint8Array) || value.byteLength !== 12) return null;
  const view = new DataView(value.buffer, value.byteOffset, 12);
  return `${view.getUint32(0, true)} months ${view.getUint32(4, true)} days ${view.getUint32(8, true)} milliseconds`;
}

/** A MAP as hyparquet assembles it (an object) as the JSON text of its entries. */
function mapEntriesText(value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return null;
  return JSON.stringify(
    Object.entries(value).map(([key, inner]) => ({ key, value: inner })),
    (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner),
  );
}

function timeUnit(element: SchemaElement): string {
  if (element.logical_type?.type === 'TIME' || element.logical_type?.type === 'TIMESTAMP') return element.logical_type.unit;
  return element.converted_type?.endsWith('MILLIS') ? 'MILLIS' : 'MICROS';
}

export function columnPlan(node: SchemaTree, column: TableColumn): ColumnPlan {
  const { element } = node;
  const name = element.name;
  const type = column.sqlType ?? column.type;
  const primitive = node.children.length === 0 && element.repetition_type !== 'REPEATED';
  if (column.entriesType) return { name, transport: { kind: 'text' }, raw: false, prepare: mapEntriesText, text: mapEntriesText };
  if (!primitive) return { name, transport: { kind: 'text' }, raw: false };
  if (type in TRANSPORT_OF_TYPE) return { name, transport: { kind: TRANSPORT_OF_TYPE[type] } as Transport, raw: false };
  if (type === 'DATE') return { name, transport: { kind: 'date' }, raw: true };
  if (type === 'INTERVAL') return { name, transport: { kind: 'text' }, raw: true, prepare: intervalText, text: intervalText };
  if (type.startsWith('TIMESTAMP')) {
    if (element.type === 'INT96') return { name, transport: { kind: 'timestamp' }, raw: false };
    if (type === 'TIMESTAMP_NS') return { name, transport: { kind: 'timestamp_ns' }, raw: true };
    return { name, transport: { kind: 'timestamp' }, raw: true, prepare: toMicros(timeUnit(element)) };
  }
  if (type.startsWith('TIME')) return { name, transport: { kind: 'time' }, raw: false, prepare: timeUnit(element) === 'MICROS' ? undefined : toMicros(timeUnit(element)) };
  const decimal = type.match(/^DECIMAL\((\d+),(\d+)\)$/);
  if (decimal) return { name, transport: { kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) }, raw: true };
  return { name, transport: { kind: 'text' }, raw: false };
}

