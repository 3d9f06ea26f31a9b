/**
 * One entry for the kept readers: a Parquet, JSON, JSON Lines, Excel or Arrow IPC file as typed columns and
 * chunks of rows. The Python worker uses it when DuckDB's extension for the format cannot load;
 * the page uses it for the preview the model is told.
 */
import 'client-only';
import type { AsyncBuffer } from 'hyparquet';
import type { Table } from 'apache-arrow';
import { rowsBatch } from './arrow-batch.client';
import { arrowColumns, arrowRows, readArrowTable } from './arrow.client';
import { jsonRecords, recordsTable } from './json.client';
import { openParquet, readParquetBatches, readParquetRows } from './parquet.client';
import { readXlsx } from './xlsx.client';
import type { Cell, TableColumn, TabularFormat } from './table.client';

export type TableReader = {
  columns: TableColumn[];
  /** Rows in the file, when known before reading them (Parquet's footer says). */
  rowCount: number;
  /** An Excel workbook's sheets, in order (the first is the file's table). */
  sheets?: string[];
  /** An Excel workbook's sheets that hold a table, each read as one when asked (the first sheet's is this reader's). */
  sheetTables?: () => Array<{ name: string; reader: TableReader }>;
  /** Hands the rows over in chunks (each in order, one at a time); stops after `limit` rows. */
  rows(onRows: (rows: Cell[][]) => void | Promise<void>, limit?: number): Promise<void>;
  /**
   * Hands the whole table over as Arrow record batches (columns `c0`, `c1`, … in `columns`' order,
   * each cast by DuckDB to its column's type), each awaited before the next is read.
   */
  batches(onBatch: (batch: Table) => void | Promise<void>): Promise<void>;
};

/** Rows read whole go to DuckDB in batches of this many (a batch's Arrow copy is all that is added). */
const BATCH_ROWS = 65_536;

const FORMAT_OF: Record<string, TabularFormat> = { parquet: 'parquet', json: 'json', jsonl: 'jsonl', ndjson: 'jsonl', xlsx: 'xlsx', arrow: 'arrow', feather: 'arrow' };

/** The reader's format for a file name, or null when no kept reader reads it. */
export function tabularFormatOf(fileName: string): TabularFormat | null {
  const ext = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return ext ? (FORMAT_OF[ext] ?? null) : null;
}

async function allBytes(file: AsyncBuffer): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, file.byteLength));
}

export async function openTable(format: TabularFormat, file: AsyncBuffer): Promise<TableReader> {
  if (format === 'parquet') {
    const parquet = await openParquet(file);
    return {
      columns: parquet.columns,
      rowCount: parquet.rowCount,
      rows: (onRows, limit) => readParquetRows(file, parquet, onRows, { rowEnd: limit }),
      batches: (onBatch) => readParquetBatches(file, parquet, onBatch),
    };
  }
  if (format === 'xlsx') {
    const workbook = await readXlsx(await allBytes(file));
    return { ...inMemory(workbook), sheets: workbook.sheets, sheetTables: () => workbook.tables().map((sheet) => ({ name: sheet.name, reader: inMemory(sheet) })) };
  }
  if (format === 'arrow') {
    const table = readArrowTable(await allBytes(file));
    const columns = arrowColumns(table);
    const rows = async (onRows: (rows: Cell[][]) => void | Promise<void>, limit?: number) => onRows(arrowRows(table, columns, limit));
    return { columns, rowCount: table.numRows, rows, batches: (onBatch) => rows((cells) => onBatch(rowsBatch(columns, cells))) };
  }
  return inMemory(recordsTable(jsonRecords(new TextDecoder().decode(await allBytes(file)), format), format));
}

/** A table read whole: its rows handed over in one chunk. */
function inMemory(table: { columns: TableColumn[]; rows: Cell[][] }): TableReader {
  return {
    columns: table.columns,
    rowCount: table.rows.length,
    rows: async (onRows, limit) => onRows(limit === undefined ? table.rows : table.rows.slice(0, limit)),
    batches: async (onBatch) => {
      for (let start = 0; start < table.rows.length; start += BATCH_ROWS) await onBatch(rowsBatch(table.columns, table.rows.slice(start, start + BATCH_ROWS)));
    },
  };
}
