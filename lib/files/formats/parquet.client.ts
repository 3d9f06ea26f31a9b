/**
 * Parquet with hyparquet (pure JavaScript): the schema as SQL types, then the rows one row group at
 * a time, read from the file by byte ranges (`AsyncBuffer.slice`), never the whole file at once.
 */
import 'client-only';
import { parquetMetadataAsync, parquetRead, parquetSchema, type AsyncBuffer, type Compressors, type FileMetaData, type SchemaElement, type SchemaTree } from 'hyparquet';
import { decompressBrotli, decompressGzip, decompressLz4, decompressLz4Raw, decompressZstd } from 'hyparquet-compressors';
import { cellOf, FormatReadError, type Cell, type SqlType, type TableColumn } from './table.client';

/** Snappy is hyparquet's own (pure JavaScript); these are the other codecs writers use (Polars: zstd). */
const COMPRESSORS: Compressors = {
  GZIP: decompressGzip,
  BROTLI: decompressBrotli,
  ZSTD: (input) => decompressZstd(input),
  LZ4: decompressLz4,
  LZ4_RAW: decompressLz4Raw,
};

const INTEGER_TYPES: Record<string, string> = {
  INT_8: 'TINYINT',
  INT_16: 'SMALLINT',
  INT_32: 'INTEGER',
  INT_64: 'BIGINT',
  UINT_8: 'UTINYINT',
  UINT_16: 'USMALLINT',
  UINT_32: 'UINTEGER',
  UINT_64: 'UBIGINT',
};

/** DuckDB's type for a primitive Parquet column (as native DuckDB's Parquet reader gives it); null for one read as text. */
function primitiveType(element: SchemaElement): string | null {
  const logical = element.logical_type;
  const converted = element.converted_type;
  if (logical?.type === 'STRING' || logical?.type === 'ENUM' || logical?.type === 'JSON' || converted === 'UTF8' || converted === 'ENUM' || converted === 'JSON') return 'VARCHAR';
  if (logical?.type === 'DATE' || converted === 'DATE') return 'DATE';
  // An instant (isAdjustedToUTC) is TIMESTAMP WITH TIME ZONE to native DuckDB; here it is its UTC
  // time as TIMESTAMP: DuckDB-wasm's time zone functions are its icu extension's, absent offline,
  // and a function such as epoch() on a TIMESTAMP WITH TIME ZONE without it traps the engine.
  if (logical?.type === 'TIMESTAMP') return logical.unit === 'NANOS' && !logical.isAdjustedToUTC ? 'TIMESTAMP_NS' : 'TIMESTAMP';
  if (converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS' || element.type === 'INT96') return 'TIMESTAMP';
  if (logical?.type === 'DECIMAL' || converted === 'DECIMAL') {
    const precision = logical?.type === 'DECIMAL' ? logical.precision : (element.precision ?? 38);
    const scale = logical?.type === 'DECIMAL' ? logical.scale : (element.scale ?? 0);
    return precision <= 38 ? `DECIMAL(${precision},${scale})` : 'DOUBLE';
  }
  if (logical?.type === 'INTEGER') return INTEGER_TYPES[`${logical.isSigned ? '' : 'U'}INT_${logical.bitWidth}`] ?? null;
  if (converted && converted in INTEGER_TYPES) return INTEGER_TYPES[converted];
  if (logical?.type === 'FLOAT16') return 'FLOAT';
  if (logical || converted) return null; // TIME, UUID, INTERVAL, BSON…: text
  switch (element.type) {
    case 'BOOLEAN':
      return 'BOOLEAN';
    case 'INT32':
      return 'INTEGER';
    case 'INT64':
      return 'BIGINT';
    case 'FLOAT':
      return 'FLOAT';
    case 'DOUBLE':
      return 'DOUBLE';
    default:
      return null;
  }
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** DuckDB's type for a Parquet column, nested ones (LIST, STRUCT) included; null for one read as text (a MAP…). */
function duckdbType(node: SchemaTree): string | null {
  const { element, children } = node;
  const annotation = element.logical_type?.type ?? element.converted_type;
  if (children.length === 0) {
    const type = primitiveType(element);
    return type && element.repetition_type === 'REPEATED' ? `${type}[]` : type;
  }
  if (annotation === 'LIST') {
    const repeated = children[0];
    // The three-level form (list → element); a two-level one repeats the element itself.
    const item = repeated && repeated.children.length === 1 && repeated.element.repetition_type === 'REPEATED' ? repeated.children[0] : repeated;
    const inner = item ? duckdbType({ ...item, element: { ...item.element, repetition_type: 'OPTIONAL' } }) : null;
    return inner ? `${inner}[]` : null;
  }
  if (annotation === 'MAP' || annotation === 'MAP_KEY_VALUE' || element.repetition_type === 'REPEATED') return null;
  const fields = children.map((child) => {
    const type = duckdbType(child);
    return type ? `${quoteName(child.element.name)} ${type}` : null;
  });
  return fields.every((field) => field !== null) ? `STRUCT(${fields.join(', ')})` : null;
}

const KIND_OF: Record<string, SqlType> = { BOOLEAN: 'BOOLEAN', DATE: 'DATE', FLOAT: 'DOUBLE', DOUBLE: 'DOUBLE' };

/** A top-level Parquet column: the kind of value its cells hold, and DuckDB's own type for it. */
export function parquetColumn(node: SchemaTree): TableColumn {
  const name = node.element.name;
  const sqlType = duckdbType(node);
  if (sqlType === null) return { name, type: 'VARCHAR' };
  let type: SqlType;
  if (sqlType.endsWith(']') || sqlType.startsWith('STRUCT(') || sqlType === 'VARCHAR') type = 'VARCHAR';
  else if (sqlType.startsWith('TIMESTAMP')) type = 'TIMESTAMP';
  else if (sqlType.startsWith('DECIMAL(')) type = 'DOUBLE';
  else type = KIND_OF[sqlType] ?? 'BIGINT';
  return sqlType === type ? { name, type } : { name, type, sqlType };
}

export type ParquetFile = { columns: TableColumn[]; rowCount: number; metadata: FileMetaData };

function unreadable(error: unknown): FormatReadError {
  return new FormatReadError('unreadable', 'parquet', error instanceof Error ? error.message : String(error));
}

/** The file's columns and row count, from its footer (two small reads at the end of the file). */
export async function openParquet(file: AsyncBuffer): Promise<ParquetFile> {
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    throw unreadable(error);
  }
  const columns = parquetSchema(metadata).children.map(parquetColumn);
  return { columns, rowCount: Number(metadata.num_rows), metadata };
}

/**
 * Reads rows `[rowStart, rowEnd)` one row group at a time, each handed to `onRows` as typed cells
 * before the next is read: only one row group's values are held at once.
 */
export async function readParquetRows(
  file: AsyncBuffer,
  parquet: ParquetFile,
  onRows: (rows: Cell[][]) => void | Promise<void>,
  range: { rowStart?: number; rowEnd?: number } = {},
): Promise<void> {
  const { columns, metadata } = parquet;
  const end = Math.min(range.rowEnd ?? parquet.rowCount, parquet.rowCount);
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupEnd = groupStart + Number(group.num_rows);
    const rowStart = Math.max(groupStart, range.rowStart ?? 0);
    const rowEnd = Math.min(groupEnd, end);
    groupStart = groupEnd;
    if (rowStart >= rowEnd) continue;
    let rows: unknown[][] = [];
    try {
      await parquetRead({
        file,
        metadata,
        rowStart,
        rowEnd,
        compressors: COMPRESSORS,
        rowFormat: 'array',
        onComplete: (read: unknown[][]) => {
          rows = read;
        },
      });
    } catch (error) {
      throw unreadable(error);
    }
    await onRows(rows.map((row) => columns.map((column, i) => cellOf(row[i], column.type))));
    if (groupEnd >= end) break;
  }
}

/** A byte array as hyparquet's file: each read copies just the range asked for. */
export function bytesAsFile(bytes: Uint8Array): AsyncBuffer {
  return {
    byteLength: bytes.byteLength,
    slice: (start, end) => bytes.slice(start, end ?? bytes.byteLength).buffer,
  };
}
