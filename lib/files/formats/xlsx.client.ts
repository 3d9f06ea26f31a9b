/**
 * Excel (.xlsx) as tables with exceljs: each worksheet's first non-empty row as the header, the
 * rows below it as data; the first worksheet is the file's table, and every sheet is a table of
 * its own too (an empty one is none). Cell values keep their kind: numbers, text, booleans, dates
 * (Excel's date-formatted numbers, as exceljs gives them), formulas as their cached results.
 */
import 'client-only';
import ExcelJS from 'exceljs';
import { cellOf, FormatReadError, inferSqlType, uniqueNames, type Cell, type SqlType, type TableColumn } from './table.client';

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

/**
 * A column's type as DuckDB's excel extension gives it: every number is a DOUBLE (Excel keeps no
 * integers), and so is a column of empty cells (a formula without a cached value is one).
 */
function excelType(values: readonly unknown[]): SqlType {
  const type = inferSqlType(values);
  if (type === 'BIGINT') return 'DOUBLE';
  if (values.every((value) => value === null || value === undefined)) return 'DOUBLE';
  return type;
}

/** One worksheet as a table. */
export type XlsxSheet = { name: string; columns: TableColumn[]; rows: Cell[][] };
/**
 * A workbook's first sheet as the table, every sheet's name in order, and every sheet that holds a
 * table, converted when asked (the page's preview needs the first sheet only).
 */
export type XlsxTable = XlsxSheet & { sheets: string[]; tables: () => XlsxSheet[] };

/** A worksheet's first non-empty row as its header and the rows below as data; null when the sheet is empty. */
function sheetTable(sheet: ExcelJS.Worksheet): XlsxSheet | null {
  const grid: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values: unknown[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      values[column - 1] = plainValue(cell.value);
    });
    grid.push(values);
  });
  const [header, ...body] = grid;
  if (!header) return null;
  const width = Math.max(header.length, ...body.map((row) => row.length));
  const names = uniqueNames(Array.from({ length: width }, (_, i) => (header[i] === null || header[i] === undefined ? '' : String(header[i] instanceof Date ? (header[i] as Date).toISOString().slice(0, 10) : header[i]))));
  const columns = names.map((name, i) => ({ name, type: excelType(body.map((row) => row[i])) }));
  const rows = body.map((row) => columns.map((column, i) => cellOf(row[i], column.type)));
  return { name: sheet.name, columns, rows };
}

export async function readXlsx(bytes: Uint8Array): Promise<XlsxTable> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's type says Buffer; it reads any ArrayBuffer view (JSZip underneath).
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new FormatReadError('unreadable', 'xlsx', error instanceof Error ? error.message : String(error));
  }
  const [first] = workbook.worksheets;
  if (!first) throw new FormatReadError('empty', 'xlsx', 'the workbook has no worksheet');
  const table = sheetTable(first);
  if (!table) throw new FormatReadError('empty', 'xlsx', `the sheet ${first.name} is empty`);
  const tables = () => [table, ...workbook.worksheets.slice(1).flatMap((sheet) => sheetTable(sheet) ?? [])];
  return { ...table, sheets: workbook.worksheets.map((w) => w.name), tables };
}
