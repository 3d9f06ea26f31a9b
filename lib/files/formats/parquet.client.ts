/**
 * Parquet with hyparquet (pure JavaScript): the schema as SQL types, then the rows one row group at
 * a time, read from the file by byte ranges (`AsyncBuffer.slice`), never the whole file at once.
 */
import 'client-only';
import { parquetMetadataAsync, parquetRead, parquetSchema, type AsyncBuffer, type Compressors, type FileMetaData, type SchemaElement, type SchemaTree } from 'hyparquet';
import { decompressBrotli, decompressGzip, decompressLz4, decompressLz4Raw, decompressZstd } from 'hyparquet-compressors';
import { arrowBatch } from './arrow-batch.client';
import { columnPlan, intervalText, type ColumnPlan } from './parquet-plan.client';
import { cellOf, FormatReadError, type Cell, type SqlType, type TableColumn } from './table.client';
import type { Table } from 'apache-arrow';

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
  if (logical?.type === 'TIME' || converted === 'TIME_MILLIS' || converted === 'TIME_MICROS') return logical?.type === 'TIME' && logical.isAdjustedToUTC ? 'TIME WITH TIME ZONE' : 'TIME';
  if (logical?.type === 'UUID') return 'UUID';
  if (converted === 'INTERVAL') return 'INTERVAL';
  if (logical || converted) return null; // BSON, geometry…: text
  if (element.type === 'BYTE_ARRAY' || element.type === 'FIXED_LEN_BYTE_ARRAY') return 'BLOB';
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

/** A MAP's key and value types, as DuckDB gives them; null for a map of something read as text. */
function mapTypes(node: SchemaTree): { key: string; value: string } | null {
  const annotation = node.element.logical_type?.type ?? node.element.converted_type;
  if (annotation !== 'MAP' && annotation !== 'MAP_KEY_VALUE') return null;
  const [keyValue] = node.children;
  const [keyNode, valueNode] = keyValue?.children ?? [];
  const key = keyNode ? duckdbType(keyNode) : null;
  const value = valueNode ? duckdbType({ ...valueNode, element: { ...valueNode.element, repetition_type: 'OPTIONAL' } }) : null;
  return key && value ? { key, value } : null;
}

/** A top-level Parquet column: the kind of value its cells hold, and DuckDB's own type for it. */
export function parquetColumn(node: SchemaTree): TableColumn {
  const name = node.element.name;
  const map = mapTypes(node);
  if (map) return { name, type: 'VARCHAR', sqlType: `MAP(${map.key}, ${map.value})`, entriesType: `STRUCT("key" ${map.key}, "value" ${map.value})[]` };
  const sqlType = duckdbType(node);
  if (sqlType === null) return { name, type: 'VARCHAR' };
  let type: SqlType;
  if (sqlType.endsWith(']') || sqlType.startsWith('STRUCT(') || ['VARCHAR', 'BLOB', 'UUID', 'INTERVAL'].includes(sqlType) || sqlType.startsWith('TIME ') || sqlType === 'TIME') type = 'VARCHAR';
  else if (sqlType.startsWith('TIMESTAMP')) type = 'TIMESTAMP';
  else if (sqlType.startsWith('DECIMAL(')) type = 'DOUBLE';
  else type = KIND_OF[sqlType] ?? 'BIGINT';
  return sqlType === type ? { name, type } : { name, type, sqlType };
}

/** The file's footer with the given columns' annotations taken off (hyparquet then converts none of their values). */
function withoutAnnotations(metadata: FileMetaData, elements: ReadonlySet<SchemaElement>): FileMetaData {
  if (elements.size === 0) return metadata;
  return { ...metadata, schema: metadata.schema.map((element) => (elements.has(element) ? { ...element, converted_type: undefined, logical_type: undefined } : element)) };
}

export type ParquetFile = {
  columns: TableColumn[];
  rowCount: number;
  metadata: FileMetaData;
  /** The footer the rows are read with (intervals as their bytes: hyparquet reads none). */
  rowsMetadata: FileMetaData;
  /** The footer the Arrow batches are read with (the `raw` columns' stored values). */
  batchMetadata: FileMetaData;
  plans: ColumnPlan[];
};

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
  const nodes = parquetSchema(metadata).children;
  const columns = nodes.map(parquetColumn);
  const plans = nodes.map((node, i) => columnPlan(node, columns[i]));
  const raw = new Set(nodes.filter((_, i) => plans[i].raw).map((node) => node.element));
  const intervals = new Set(nodes.filter((_, i) => plans[i].text === intervalText).map((node) => node.element));
  return { columns, rowCount: Number(metadata.num_rows), metadata, rowsMetadata: withoutAnnotations(metadata, intervals), batchMetadata: withoutAnnotations(metadata, raw), plans };
}

/** The row groups overlapping rows `[rowStart, rowEnd)`, each with its own first and last row. */
function* groupRanges(metadata: FileMetaData, rowStart: number, rowEnd: number): Generator<{ start: number; end: number; last: boolean }> {
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupEnd = groupStart + Number(group.num_rows);
    const start = Math.max(groupStart, rowStart);
    const end = Math.min(groupEnd, rowEnd);
    groupStart = groupEnd;
    if (start < end) yield { start, end, last: groupEnd >= rowEnd };
    if (groupEnd >= rowEnd) return;
  }
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
  const { columns, plans } = parquet;
  for (const { start, end } of groupRanges(parquet.metadata, range.rowStart ?? 0, Math.min(range.rowEnd ?? parquet.rowCount, parquet.rowCount))) {
    let rows: unknown[][] = [];
    try {
      await parquetRead({
        file,
        metadata: parquet.rowsMetadata,
        rowStart: start,
        rowEnd: end,
        compressors: COMPRESSORS,
        rowFormat: 'array',
        onComplete: (read: unknown[][]) => {
          rows = read;
        },
      });
    } catch (error) {
      throw unreadable(error);
    }
    await onRows(rows.map((row) => columns.map((column, i) => cellOf(plans[i].text ? plans[i].text(row[i]) : row[i], column.type))));
  }
}

type Chunk = { columnData: ArrayLike<unknown>; rowStart: number; rowEnd: number };

/** A column's values for rows `[start, end)` from the chunks hyparquet handed over (pages may overlap the range). */
function gather(chunks: readonly Chunk[], start: number, end: number): ArrayLike<unknown> {
  const [only] = chunks;
  if (chunks.length === 1 && only.rowStart === start && only.rowEnd === end) return only.columnData;
  const values: unknown[] = new Array(end - start).fill(null);
  for (const chunk of chunks) {
    for (let row = Math.max(chunk.rowStart, start); row < Math.min(chunk.rowEnd, end); row += 1) values[row - start] = chunk.columnData[row - chunk.rowStart];
  }
  return values;
}

/**
 * The file as Arrow record batches, one per row group, each handed to `onBatch` (and awaited)
 * before the next is read: only one row group's values are held at once. Columns `c0`, `c1`, …
 * in the file's order, each in its plan's transport.
 */
export async function readParquetBatches(file: AsyncBuffer, parquet: ParquetFile, onBatch: (batch: Table) => void | Promise<void>): Promise<void> {
  const { plans } = parquet;
  for (const { start, end } of groupRanges(parquet.metadata, 0, parquet.rowCount)) {
    const chunks = new Map<string, Chunk[]>(plans.map((plan) => [plan.name, []]));
    try {
      await parquetRead({
        file,
        metadata: parquet.batchMetadata,
        rowStart: start,
        rowEnd: end,
        compressors: COMPRESSORS,
        utf8: false,
        onChunk: (chunk) => chunks.get(chunk.columnName)?.push(chunk),
      });
    } catch (error) {
      throw unreadable(error);
    }
    const batch = arrowBatch(
      plans.map((plan) => {
        const values = gather(chunks.get(plan.name) ?? [], start, end);
        return { values: plan.prepare ? Array.from(values, plan.prepare) : values, transport: plan.transport };
      }),
    );
    await onBatch(batch);
  }
}

/** A byte array as hyparquet's file: each read copies just the range asked for. */
export function bytesAsFile(bytes: Uint8Array): AsyncBuffer {
  return {
    byteLength: bytes.byteLength,
    slice: (start, end) => bytes.slice(start, end ?? bytes.byteLength).buffer,
  };
}
