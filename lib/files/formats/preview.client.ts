/**
 * The preview the model is told about a dropped Parquet or Excel file, read with the kept readers
 * (the same that make the file a table offline): columns with the SQL type DuckDB will see, the row
 * count, the first rows. Parquet is read by ranges: its footer and the first row group only.
 */
import 'client-only';
import type { AsyncBuffer } from 'hyparquet';
import { openTable } from './read-table.client';
import { cellText, declaredType, type TabularFormat } from './table.client';
import type { TablePreview } from '../sniff.client';

const CELL_CHARS = 80;

export async function tablePreviewOf(format: TabularFormat, file: AsyncBuffer, maxRows = 5): Promise<TablePreview> {
  const reader = await openTable(format, file);
  const rows: string[][] = [];
  if (maxRows > 0) {
    await reader.rows((chunk) => {
      for (const row of chunk) {
        if (rows.length >= maxRows) return;
        rows.push(reader.columns.map((column, i) => cellText(row[i] ?? null, column.type).slice(0, CELL_CHARS)));
      }
    }, maxRows);
  }
  const sheets = reader.sheets ?? [];
  return {
    format: format === 'jsonl' ? 'jsonl' : format,
    columns: reader.columns.map((column) => ({ name: column.name, type: declaredType(column) })),
    rows,
    rowCount: reader.rowCount,
    truncated: false,
    header: true,
    warnings: sheets.length > 1 ? [`${sheets.length} sheets (${sheets.join(', ')}); the first, ${sheets[0]}, is the file's table, and each sheet is read by name with read_xlsx(path, sheet = 'name')`] : [],
  };
}

/** A File as hyparquet's file: each read is a slice of the file, read when asked for. */
export function fileAsBuffer(file: Blob): AsyncBuffer {
  return { byteLength: file.size, slice: (start, end) => file.slice(start, end).arrayBuffer() };
}
