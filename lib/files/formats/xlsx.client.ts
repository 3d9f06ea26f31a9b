/**
 * Excel (.xlsx) as a table with exceljs: the first worksheet, its first non-empty row as the
 * header, the rows below it as data. Cell values keep their kind: numbers, text, booleans, dates
 * (Excel's date-formatted numbers, as exceljs gives them), formulas as their cached results.
 */
import 'client-only';
import ExcelJS from 'exceljs';
import { cellOf, FormatReadError, inferSqlType, uniqueNames, type Cell, type TableColumn } from './table.client';

/** A cell's value as a plain value: a formula's cached result, rich text's text, a link's text. */
function plainValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value !== 'object') return value;
  if ('result' in value) return plainValue((value as { result?: ExcelJS.CellValue }).result ?? null);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('error' in value) return null;
  return null;
}

export type XlsxTable = { sheet: string; sheets: string[]; columns: TableColumn[]; rows: Cell[][] };

export async function readXlsx(bytes: Uint8Array): Promise<XlsxTable> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's type says Buffer; it reads any ArrayBuffer view (JSZip underneath).
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new FormatReadError('unreadable', 'xlsx', error instanceof Error ? error.message : String(error));
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new FormatReadError('empty', 'xlsx', 'the workbook has no worksheet');
  const grid: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values: unknown[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      values[column - 1] = plainValue(cell.value);
    });
    grid.push(values);
  });
  const [header, ...body] = grid;
  if (!header) throw new FormatReadError('empty', 'xlsx', `the sheet ${sheet.name} is empty`);
  const width = Math.max(header.length, ...body.map((row) => row.length));
  const names = uniqueNames(Array.from({ length: width }, (_, i) => (header[i] === null || header[i] === undefined ? '' : String(header[i] instanceof Date ? (header[i] as Date).toISOString().slice(0, 10) : header[i]))));
  const columns = names.map((name, i) => ({ name, type: inferSqlType(body.map((row) => row[i])) }));
  const rows = body.map((row) => columns.map((column, i) => cellOf(row[i], column.type)));
  return { sheet: sheet.name, sheets: workbook.worksheets.map((w) => w.name), columns, rows };
}
