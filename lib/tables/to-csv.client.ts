/**
 * A table as CSV (RFC 4180) for "Download CSV", and as TSV for "Copy". Cells are written raw
 * (1234.5, not "1,234.5"), and text that a spreadsheet would run as a formula is defused.
 */
import 'client-only';
import type { TableData } from '@/lib/runtime/protocol';
import type { Cell, Row } from './table-view';

/** Characters that make Excel, LibreOffice or Sheets read a cell as a formula (or a DDE call). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number written as text ("-5", "+1.5e3") is no formula, and stays as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * CSV/formula injection (OWASP): a text cell starting with = + - @ tab or CR gets a leading
 * apostrophe, which spreadsheets show as text. Numbers, negative ones included, are untouched.
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function rawText(value: Cell | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return guardFormula(value);
  return String(value);
}

export type DelimitedOptions = { delimiter: string; newline: string; trailingNewline: boolean };

function quote(field: string, delimiter: string): string {
  const special = field.includes(delimiter) || field.includes('"') || field.includes('\r') || field.includes('\n');
  return special ? `"${field.replaceAll('"', '""')}"` : field;
}

function record(fields: string[], delimiter: string): string {
  // A record of one empty field would be a blank line, which readers skip: quote it.
  if (fields.length === 1 && fields[0] === '') return '""';
  return fields.map((f) => quote(f, delimiter)).join(delimiter);
}

/** The header row and the rows (default: all of `table.data`) as delimited text. */
export function tableToDelimited(table: TableData, rows: readonly Row[], options: DelimitedOptions): string {
  const names = table.schema.fields.map((f) => f.name);
  const lines = [record(names.map(guardFormula), options.delimiter)];
  for (const row of rows) lines.push(record(names.map((n) => rawText(row[n])), options.delimiter));
  return lines.join(options.newline) + (options.trailingNewline ? options.newline : '');
}

/**
 * RFC 4180: a header row from the schema's fields, CRLF after every record, fields quoted when
 * they hold a comma, a double quote, CR or LF, and quotes doubled.
 */
export function tableToCsv(table: TableData, rows: readonly Row[] = table.data): string {
  return tableToDelimited(table, rows, { delimiter: ',', newline: '\r\n', trailingNewline: true });
}

/** Tab-separated, as spreadsheets paste it; the same quoting and formula guard as the CSV. */
export function tableToTsv(table: TableData, rows: readonly Row[] = table.data): string {
  return tableToDelimited(table, rows, { delimiter: '\t', newline: '\n', trailingNewline: false });
}
