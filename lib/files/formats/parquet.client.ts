/**
 * Parquet with hyparquet (pure JavaScript): the schema as SQL types, then the rows one row group at
 * a time, read from the file by byte ranges (`AsyncBuffer.slice`), never the whole file at once.
 */
import 'client-only';
import { parquetMetadataAsync, parquetRead, parquetSchema, type AsyncBuffer, type Compressors, type FileMetaData, type SchemaElement } from 'hyparquet';
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

/** The SQL type of a top-level Parquet column (nested columns become JSON text). */
export function parquetSqlType(element: SchemaElement, nested: boolean): SqlType {
  if (nested) return 'VARCHAR';
  const logical = element.logical_type;
  const converted = element.converted_type;
  if (logical?.type === 'DATE' || converted === 'DATE') return 'DATE';
  if (logical?.type === 'TIMESTAMP' || converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS' || element.type === 'INT96') return 'TIMESTAMP';
  if (logical?.type === 'DECIMAL' || converted === 'DECIMAL') return 'DOUBLE';
  if (logical?.type === 'TIME' || converted === 'TIME_MILLIS' || converted === 'TIME_MICROS') return 'VARCHAR';
  switch (element.type) {
    case 'BOOLEAN':
      return 'BOOLEAN';
    case 'INT32':
    case 'INT64':
      return 'BIGINT';
    case 'FLOAT':
    case 'DOUBLE':
      return 'DOUBLE';
    default:
      return 'VARCHAR';
  }
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
  const columns = parquetSchema(metadata).children.map((child) => ({
    name: child.element.name,
    type: parquetSqlType(child.element, child.children.length > 0),
  }));
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
