/**
 * Columns of values as Arrow record batches, the form DuckDB-wasm takes a table in without text in
 * between (`insertArrowFromIPCStream`). Each column travels as one Arrow type DuckDB reads as it
 * is (integers, floats, booleans, dates, timestamps, times, decimals, text, bytes) and is cast on
 * arrival to DuckDB's own type for it (lib/targets/sql/engine/offline-tables.ts). Pure: no DOM, no DuckDB.
 */
import 'client-only';
import {
  Binary,
  Bool,
  DateDay,
  Decimal,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  makeData,
  makeVector,
  Table,
  TimeMicrosecond,
  TimestampMicrosecond,
  TimestampNanosecond,
  Uint8,
  Uint16,
  Uint32,
  Uint64,
  Type,
  Utf8,
  type DataType,
  type Vector,
} from 'apache-arrow';
import { cellOf, type Cell, type SqlType, type TableColumn } from './table.client';

/** How a column's values travel. */
export type Transport =
  | { kind: 'int8' | 'int16' | 'int32' | 'uint8' | 'uint16' | 'uint32' | 'int64' | 'uint64' | 'float' | 'double' | 'bool' | 'date' | 'timestamp' | 'timestamp_ns' | 'time' | 'text' | 'blob' }
  | { kind: 'decimal'; precision: number; scale: number };

const DAY_MS = 86_400_000;

type Validity = { bitmap: Uint8Array; nulls: number };

function validity(values: ArrayLike<unknown>): Validity | null {
  if (ArrayBuffer.isView(values)) return null;
  let nulls = 0;
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === null || value === undefined) nulls += 1;
    else bitmap[i >> 3] |= 1 << (i & 7);
  }
  return nulls === 0 ? null : { bitmap, nulls };
}

function nullProps(valid: Validity | null): { nullBitmap?: Uint8Array; nullCount: number } {
  return valid ? { nullBitmap: valid.bitmap, nullCount: valid.nulls } : { nullCount: 0 };
}

function present(value: unknown): boolean {
  return value !== null && value !== undefined;
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  return 0n;
}

function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : 0;
}

/** Microseconds since the epoch of a timestamp value. */
function micros(value: unknown): bigint {
  if (value instanceof Date) return BigInt(value.getTime()) * 1000n;
  return toBigInt(value);
}

function days(value: unknown): number {
  if (value instanceof Date) return Math.floor(value.getTime() / DAY_MS);
  return toNumber(value);
}

/** Text (or bytes) as Arrow's offsets and one buffer. */
function variableWidth(values: ArrayLike<unknown>, bytesOf: (value: unknown) => Uint8Array | string): { valueOffsets: Int32Array; data: Uint8Array; valid: Validity | null } {
  const valid = validity(values);
  const encoder = new TextEncoder();
  const valueOffsets = new Int32Array(values.length + 1);
  let data = new Uint8Array(Math.max(64, values.length * 16));
  let used = 0;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (present(value)) {
      const item = bytesOf(value);
      const needed = used + (typeof item === 'string' ? item.length * 3 : item.byteLength);
      if (needed > data.length) {
        const grown = new Uint8Array(Math.max(needed, data.length * 2));
        grown.set(data.subarray(0, used));
        data = grown;
      }
      if (typeof item === 'string') used += encoder.encodeInto(item, data.subarray(used)).written;
      else {
        data.set(item, used);
        used += item.byteLength;
      }
    }
    valueOffsets[i + 1] = used;
  }
  return { valueOffsets, data: data.subarray(0, used), valid };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : String(cellOf(value, 'VARCHAR') ?? '');
}

/** The unscaled value of a decimal as a two's-complement 128-bit integer, little-endian words. */
function decimalWords(values: ArrayLike<unknown>): { data: Uint32Array; valid: Validity | null } {
  const valid = validity(values);
  const words = new BigUint64Array(values.length * 2);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (!present(value)) continue;
    const unscaled = value instanceof Uint8Array ? bigEndianSigned(value) : toBigInt(value);
    words[2 * i] = BigInt.asUintN(64, unscaled);
    words[2 * i + 1] = BigInt.asUintN(64, unscaled >> 64n);
  }
  return { data: new Uint32Array(words.buffer), valid };
}

/** A big-endian two's-complement integer (Parquet's FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals). */
export function bigEndianSigned(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  const bits = BigInt(bytes.length * 8);
  return bytes.length > 0 && bytes[0] & 0x80 ? value - (1n << bits) : value;
}

type FixedKind = Exclude<Transport['kind'], 'bool' | 'decimal' | 'text' | 'blob'>;
type Fixed = { type: () => DataType; make: (length: number) => FixedArray; convert: (value: unknown) => number | bigint };
type FixedArray = Int8Array | Int16Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/** The fixed-width transports: Arrow's type, its array, and a value as it is stored. */
const FIXED: Record<FixedKind, Fixed> = {
  int8: { type: () => new Int8(), make: (n) => new Int8Array(n), convert: toNumber },
  int16: { type: () => new Int16(), make: (n) => new Int16Array(n), convert: toNumber },
  int32: { type: () => new Int32(), make: (n) => new Int32Array(n), convert: toNumber },
  uint8: { type: () => new Uint8(), make: (n) => new Uint8Array(n), convert: toNumber },
  uint16: { type: () => new Uint16(), make: (n) => new Uint16Array(n), convert: toNumber },
  uint32: { type: () => new Uint32(), make: (n) => new Uint32Array(n), convert: toNumber },
  int64: { type: () => new Int64(), make: (n) => new BigInt64Array(n), convert: toBigInt },
  uint64: { type: () => new Uint64(), make: (n) => new BigUint64Array(n), convert: (value) => BigInt.asUintN(64, toBigInt(value)) },
  float: { type: () => new Float32(), make: (n) => new Float32Array(n), convert: toNumber },
  double: { type: () => new Float64(), make: (n) => new Float64Array(n), convert: toNumber },
  date: { type: () => new DateDay(), make: (n) => new Int32Array(n), convert: days },
  timestamp: { type: () => new TimestampMicrosecond(), make: (n) => new BigInt64Array(n), convert: micros },
  timestamp_ns: { type: () => new TimestampNanosecond(), make: (n) => new BigInt64Array(n), convert: toBigInt },
  time: { type: () => new TimeMicrosecond(), make: (n) => new BigInt64Array(n), convert: toBigInt },
};

/** One column's values as an Arrow vector of its transport type. */
export function arrowVector(values: ArrayLike<unknown>, transport: Transport): Vector {
  const length = values.length;
  switch (transport.kind) {
    case 'bool': {
      const valid = validity(values);
      const data = new Uint8Array((length + 7) >> 3);
      for (let i = 0; i < length; i += 1) if (values[i] === true) data[i >> 3] |= 1 << (i & 7);
      return makeVector(makeData({ type: new Bool(), length, data, ...nullProps(valid) }));
    }
    case 'decimal': {
      const { data, valid } = decimalWords(values);
      return makeVector(makeData({ type: new Decimal(transport.scale, transport.precision, 128), length, data, ...nullProps(valid) }));
    }
    case 'text': {
      const { valueOffsets, data, valid } = variableWidth(values, textOf);
      return makeVector(makeData({ type: new Utf8(), length, valueOffsets, data, ...nullProps(valid) }));
    }
    case 'blob': {
      const { valueOffsets, data, valid } = variableWidth(values, (value) => (value instanceof Uint8Array ? value : textOf(value)));
      return makeVector(makeData({ type: new Binary(), length, valueOffsets, data, ...nullProps(valid) }));
    }
    default: {
      const fixed = FIXED[transport.kind];
      const valid = validity(values);
      const data = fixed.make(length);
      for (let i = 0; i < length; i += 1) {
        const value = values[i];
        if (present(value)) data[i] = fixed.convert(value);
      }
      return makeVector(makeData({ type: fixed.type(), length, data, ...nullProps(valid) } as Parameters<typeof makeData>[0]));
    }
  }
}

/** A record batch of columns `c0`, `c1`, … (DuckDB renames nothing, and no name needs quoting). */
export function arrowBatch(columns: ReadonlyArray<{ values: ArrayLike<unknown>; transport: Transport }>): Table {
  return new Table(Object.fromEntries(columns.map((column, i) => [`c${i}`, arrowVector(column.values, column.transport)])));
}

const TRANSPORT_OF: Record<SqlType, Transport> = {
  BIGINT: { kind: 'int64' },
  DOUBLE: { kind: 'double' },
  BOOLEAN: { kind: 'bool' },
  DATE: { kind: 'date' },
  TIMESTAMP: { kind: 'timestamp' },
  VARCHAR: { kind: 'text' },
};

/** Rows of cells (JSON, Excel) as one record batch, each column travelling as its kind of cell. */
export function rowsBatch(columns: readonly TableColumn[], rows: readonly Cell[][]): Table {
  return arrowBatch(columns.map((column, i) => ({ values: rows.map((row) => row[i] ?? null), transport: TRANSPORT_OF[column.type] })));
}

const INT_TYPES: Record<string, string> = { '8': 'TINYINT', '16': 'SMALLINT', '32': 'INTEGER', '64': 'BIGINT' };

/** The type DuckDB gives a column of this Arrow type (the transports' types only; null for any other). */
export function duckdbTypeOfArrow(type: DataType): string | null {
  switch (type.typeId) {
    case Type.Int: {
      const int = type as Int32;
      const name = INT_TYPES[String(int.bitWidth)];
      return name ? `${int.isSigned ? '' : 'U'}${name}` : null;
    }
    case Type.Float:
      return (type as Float64).precision === 2 ? 'DOUBLE' : 'FLOAT';
    case Type.Bool:
      return 'BOOLEAN';
    case Type.Date:
      return 'DATE';
    case Type.Timestamp:
      return (type as TimestampMicrosecond).unit === 2 ? 'TIMESTAMP' : (type as TimestampNanosecond).unit === 3 ? 'TIMESTAMP_NS' : null;
    case Type.Time:
      return 'TIME';
    case Type.Decimal:
      return `DECIMAL(${(type as Decimal).precision},${(type as Decimal).scale})`;
    case Type.Utf8:
      return 'VARCHAR';
    case Type.Binary:
      return 'BLOB';
    default:
      return null;
  }
}
