/**
 * Sniffs a dataset in the browser so the model learns its columns, types and first rows before
 * writing code. Handles a BOM, the delimiter (, ; tab |), RFC 4180 quoting (quoted delimiters,
 * doubled quotes, newlines inside quotes), CRLF, ragged rows, JSON and JSON Lines. When only a
 * prefix of the file is given (`complete: false`), the last, possibly cut, record is dropped and
 * the row count is unknown.
 */
import 'client-only';
import { formatBytes } from '@/lib/format';
import type { SqlType } from './formats/table.client';
import { headerlessName } from '@/lib/messages/attachment';

export type ColumnType = 'integer' | 'number' | 'boolean' | 'date' | 'string' | 'empty';
export type TablePreview = {
  format: 'csv' | 'tsv' | 'json' | 'jsonl' | 'parquet' | 'xlsx' | 'arrow';
  delimiter?: ',' | ';' | '\t' | '|';
  /** Sniffed text has inferred types; Parquet and Excel, read by the kept readers, DuckDB's (lib/files/formats). */
  /** The sniffed kind of a text file's column, or DuckDB's own type for a file a kept reader read (DECIMAL(12,2), INTEGER[]…). */
  columns: { name: string; type: ColumnType | SqlType | (string & {}) }[];
  /** First rows as text, at most maxRows, each cell at most 80 characters. */
  rows: string[][];
  /** Data rows (excluding the header) when the whole text was sniffed, else null. */
  rowCount: number | null;
  /** True when only a prefix of the file was given. */
  truncated: boolean;
  /**
   * Whether the first row is a header (its cells are the column names), decided as DuckDB's CSV
   * sniffer decides it: false when every cell of the first row fits its column's type and some
   * column is not text; then the first row is data and the columns are named column0, column1, ….
   * JSON keys are always names.
   */
  header: boolean;
  warnings: string[];
};
type SniffOptions = { fileName: string; maxRows?: number; complete: boolean };

const DELIMITERS = [',', ';', '\t', '|'] as const;
type Delimiter = (typeof DELIMITERS)[number];
const CELL_CHARS = 80;
/** Records looked at to choose the delimiter. */
const DETECT_RECORDS = 30;
/** previewToText stays well under the 8,000 characters an attachment preview may have. */
export const PREVIEW_MAX_CHARS = 7_000;

type Parsed = {
  records: string[][];
  /** The text ended inside a record (no line break after it), so with a prefix it may be cut. */
  lastPartial: boolean;
  /** The text ended inside a quoted field. */
  openQuote: boolean;
};

/**
 * Splits delimited text into records, honouring RFC 4180 quotes (a quote opens only at the start
 * of a field; "" inside quotes is one quote; delimiters and line breaks inside quotes are data).
 * Accepts CRLF, LF and lone CR; skips blank lines. Stops after maxRecords records.
 */
export function parseDelimited(text: string, delimiter: Delimiter, maxRecords = Infinity): Parsed {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false; // the current field has consumed something (text or a quote)
  const endRecord = (): boolean => {
    record.push(field);
    // A blank (or whitespace-only) line is not a record; a lone quoted empty field is.
    const blank = record.length === 1 && !fieldStarted;
    if (!blank) records.push(record);
    record = [];
    field = '';
    fieldStarted = false;
    return !blank;
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else field += char;
    } else if (char === '"' && !fieldStarted) {
      // Spaces before an opening quote (`a, "b, c"`) are not part of the field.
      field = '';
      quoted = true;
      fieldStarted = true;
    } else if (char === delimiter) {
      record.push(field);
      field = '';
      fieldStarted = false;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      if (records.length >= maxRecords) return { records, lastPartial: false, openQuote: false };
    } else {
      field += char;
      if (char !== ' ' && char !== '\t') fieldStarted = true;
    }
  }
  const pending = fieldStarted || field !== '' || record.length > 0;
  const lastPartial = pending && endRecord();
  return { records, lastPartial, openQuote: quoted };
}

function delimiterScore(text: string, delimiter: Delimiter, complete: boolean): { consistency: number; fields: number } | null {
  const parsed = parseDelimited(text, delimiter, DETECT_RECORDS);
  const records = parsed.lastPartial && !complete && parsed.records.length > 1 ? parsed.records.slice(0, -1) : parsed.records;
  if (records.length === 0 || records[0].length < 2) return null;
  const fields = records[0].length;
  return { consistency: records.filter((r) => r.length === fields).length / records.length, fields };
}

/** The delimiter whose field counts agree best over the first records (ties: more fields, then the order , ; tab |). */
function detectDelimiter(text: string, fileName: string, complete: boolean): Delimiter {
  const isTsv = /\.tsv$/i.test(fileName);
  if (isTsv && delimiterScore(text, '\t', complete)) return '\t';
  let best: Delimiter = isTsv ? '\t' : ',';
  let bestScore: { consistency: number; fields: number } | null = null;
  for (const delimiter of DELIMITERS) {
    const score = delimiterScore(text, delimiter, complete);
    if (!score) continue;
    if (!bestScore || score.consistency > bestScore.consistency || (score.consistency === bestScore.consistency && score.fields > bestScore.fields)) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

const INTEGER = /^[-+]?\d+$/;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;
const BOOLEAN = /^(?:true|false)$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[-+]\d{2}:?\d{2})?)?$/;

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, , month, day, hour = '0', minute = '0', second = '0'] = match;
  return +month >= 1 && +month <= 12 && +day >= 1 && +day <= 31 && +hour <= 23 && +minute <= 59 && +second <= 60;
}

/** The narrowest type every non-empty value fits. */
export function inferType(values: string[]): ColumnType {
  const present = values.map((v) => v.trim()).filter((v) => v !== '');
  if (present.length === 0) return 'empty';
  if (present.every((v) => INTEGER.test(v))) return 'integer';
  if (present.every((v) => NUMBER.test(v))) return 'number';
  if (present.every((v) => BOOLEAN.test(v))) return 'boolean';
  if (present.every(isDate)) return 'date';
  return 'string';
}

/** At most `max` characters (code points kept whole), an ellipsis marking a cut. */
function clip(value: string, max = CELL_CHARS): string {
  if (value.length <= max) return value;
  const chars = Array.from(value);
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

type Shape = Pick<TablePreview, 'format' | 'delimiter' | 'truncated'> & { complete: boolean };

function fromRecords(header: string[], body: string[][], shape: Shape, maxRows: number, warnings: string[] = [], hasHeader = true): TablePreview {
  const ragged = body.filter((r) => r.length !== header.length).length;
  if (ragged > 0) {
    warnings.unshift(`ragged rows: ${plural(ragged, 'row has', 'rows have')} a different number of fields than the header (${header.length})`);
  }
  const names = header.map((name, i) => name.trim() || `column_${i + 1}`);
  const duplicates = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  if (duplicates.length > 0) warnings.push(`duplicate column names: ${duplicates.map((d) => clip(d)).join(', ')}`);
  const columns = names.map((name, i) => ({ name, type: inferType(body.map((r) => r[i] ?? '')) }));
  const preview: TablePreview = {
    format: shape.format,
    columns,
    rows: body.slice(0, maxRows).map((r) => r.map((c) => clip(c))),
    rowCount: shape.complete ? body.length : null,
    truncated: shape.truncated,
    header: hasHeader,
    warnings,
  };
  if (shape.delimiter) preview.delimiter = shape.delimiter;
  return preview;
}

type JsonRecord = Record<string, unknown>;
const isRecord = (v: unknown): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function fromJsonRecords(records: JsonRecord[], shape: Shape, maxRows: number, warnings: string[]): TablePreview {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const record of records) {
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  const body = records.map((r) => names.map((n) => cellText(r[n])));
  return fromRecords(names, body, shape, maxRows, warnings);
}

/**
 * The longest prefix of a cut-off JSON array holding only whole elements, closed with "]", or
 * null when the text is not the start of an array.
 */
function closeArrayPrefix(text: string): string | null {
  const start = text.search(/\S/);
  if (start === -1 || text[start] !== '[') return null;
  let depth = 0;
  let inString = false;
  let lastEnd = -1; // index just after the last whole top-level element
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth += 1;
    else if (char === ']' || char === '}') {
      depth -= 1;
      if (depth === 1) lastEnd = i + 1;
      if (depth === 0) return text.slice(start, i + 1);
    } else if (char === ',' && depth === 1) lastEnd = i;
  }
  return lastEnd === -1 ? null : `${text.slice(start, lastEnd)}]`;
}

/** Whether a (possibly cut) file's text is JSON: "no" is an answer, not a failure (the file is sniffed as text then). */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A JSON array of objects, or an object whose values are columns (arrays). */
function sniffJson(text: string, options: SniffOptions, maxRows: number): TablePreview | null {
  let parsed = parseJson(text);
  if (!parsed.ok && !options.complete) {
    const prefix = closeArrayPrefix(text);
    if (prefix !== null) parsed = parseJson(prefix);
  }
  if (!parsed.ok) return null;
  const value = parsed.value;
  const shape: Shape = { format: 'json', truncated: !options.complete, complete: options.complete };
  const warnings: string[] = [];
  if (Array.isArray(value)) {
    const records = value.filter(isRecord);
    if (records.length === 0 && value.length > 0) return null;
    const skipped = value.length - records.length;
    if (skipped > 0) warnings.push(`${plural(skipped, 'array element is', 'array elements are')} not an object and ${skipped === 1 ? 'was' : 'were'} skipped`);
    return fromJsonRecords(records, shape, maxRows, warnings);
  }
  if (isRecord(value)) {
    const columns = Object.entries(value).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
    if (columns.length === 0) return null;
    const lengths = new Set(columns.map(([, v]) => v.length));
    if (lengths.size > 1) warnings.push(`columns have different lengths (${[...lengths].sort((a, b) => a - b).join(', ')})`);
    const skipped = Object.keys(value).length - columns.length;
    if (skipped > 0) warnings.push(`${plural(skipped, 'key is', 'keys are')} not an array and ${skipped === 1 ? 'was' : 'were'} skipped`);
    const length = Math.max(...lengths);
    const body = Array.from({ length }, (_, i) => columns.map(([, v]) => cellText(v[i])));
    return fromRecords(
      columns.map(([k]) => k),
      body,
      shape,
      maxRows,
      warnings,
    );
  }
  return null;
}

/** One JSON object per line; null when the first line is not one. */
function sniffJsonLines(text: string, options: SniffOptions, maxRows: number): TablePreview | null {
  const lines = text.split(/\r\n|\n|\r/);
  if (!options.complete && !/[\r\n]$/.test(text)) lines.pop();
  const records: JsonRecord[] = [];
  let bad = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
    const parsed = parseJson(line);
    if (parsed.ok && isRecord(parsed.value)) records.push(parsed.value);
    else if (records.length === 0) return null;
    else bad += 1;
  }
  if (records.length === 0) return null;
  const warnings = bad > 0 ? [`${plural(bad, 'line is', 'lines are')} not a JSON object and ${bad === 1 ? 'was' : 'were'} skipped`] : [];
  return fromJsonRecords(records, { format: 'jsonl', truncated: !options.complete, complete: options.complete }, maxRows, warnings);
}

function sniffDelimited(text: string, options: SniffOptions, maxRows: number): TablePreview | null {
  const delimiter = detectDelimiter(text, options.fileName, options.complete);
  const parsed = parseDelimited(text, delimiter);
  const records = !options.complete && parsed.lastPartial ? parsed.records.slice(0, -1) : parsed.records;
  if (records.length === 0) return null;
  const warnings: string[] = [];
  if (options.complete && parsed.openQuote) warnings.push('unterminated quote: the last field runs to the end of the file');
  const [first, ...rest] = records;
  const shape: Shape = { format: delimiter === '\t' ? 'tsv' : 'csv', delimiter, truncated: !options.complete, complete: options.complete };
  if (firstRowIsHeader(first, rest)) return fromRecords(first, rest, shape, maxRows, warnings);
  return fromRecords(first.map((_cell, i) => headerlessName(i)), records, shape, maxRows, warnings, false);
}

const FITS: Record<ColumnType, (value: string) => boolean> = {
  integer: (value) => INTEGER.test(value),
  number: (value) => NUMBER.test(value),
  boolean: (value) => BOOLEAN.test(value),
  date: isDate,
  string: () => true,
  empty: () => true,
};

/**
 * DuckDB's sniffer's answer (checked against it in sniff.test.ts): the first row is a header unless
 * each of its cells fits the type of its column's other rows and some column is not text. A file of
 * text columns only cannot tell, and DuckDB then reads its first row as names.
 */
function firstRowIsHeader(first: string[], body: string[][]): boolean {
  if (body.length === 0) return true;
  const types = first.map((_cell, i) => inferType(body.map((row) => row[i] ?? '')));
  if (types.every((type) => type === 'string' || type === 'empty')) return true;
  return !first.every((cell, i) => cell.trim() === '' || FITS[types[i]](cell.trim()));
}

/**
 * Columns (with inferred types), first rows and row count of a CSV, TSV, JSON or JSON Lines
 * text; null when it is empty or not a table. The extension decides the format first; .txt and
 * unknown extensions are judged by content.
 */
export function sniffTable(text: string, options: SniffOptions): TablePreview | null {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return null;
  const maxRows = Math.max(0, Math.floor(options.maxRows ?? 5));
  const extension = options.fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  if (extension === 'jsonl' || extension === 'ndjson') return sniffJsonLines(body, options, maxRows);
  // A .json file is sometimes JSON Lines; read it as such when it is not one JSON value.
  if (extension === 'json') return sniffJson(body, options, maxRows) ?? sniffJsonLines(body, options, maxRows);
  if (extension === 'csv' || extension === 'tsv') return sniffDelimited(body, options, maxRows);
  if (/^\s*[[{]/.test(body)) return sniffJson(body, options, maxRows) ?? sniffJsonLines(body, options, maxRows);
  return sniffDelimited(body, options, maxRows);
}

const oneLine = (value: string) => value.replace(/\r\n|\r|\n/g, '\\n');
/** A cell or name as part of one line of a pipe table. */
const tableCell = (value: string) => oneLine(value).replace(/\|/g, '\\|');

/**
 * Compact text for the model: the file's path (as /data/…), size, format and row count, the
 * columns with types, then the first rows as a pipe table; at most PREVIEW_MAX_CHARS characters.
 */
export function previewToText(fileName: string, sizeBytes: number, preview: TablePreview | null): string {
  const where = clip(`/${fileName.replace(/^\/+/, '')}`, 300);
  if (!preview) return `${where} (${formatBytes(sizeBytes)})`;
  const rows = preview.rowCount === null ? 'row count unknown: only the start of the file was read' : plural(preview.rowCount, 'row', 'rows');
  const delimiter = preview.delimiter === ';' || preview.delimiter === '|' ? `, delimiter ${JSON.stringify(preview.delimiter)}` : '';
  let columns = '';
  const described = preview.columns.map((c) => `${oneLine(clip(c.name))} (${c.type})`);
  for (let i = 0; i < described.length; i += 1) {
    const next = `${columns}${i > 0 ? ', ' : ''}${described[i]}`;
    if (next.length > 3_000) {
      columns += `, … (${plural(described.length - i, 'more column', 'more columns')})`;
      break;
    }
    columns = next;
  }
  const lines = [`${where} (${formatBytes(sizeBytes)}, ${preview.format.toUpperCase()}${delimiter}, ${rows}): ${columns ? `${preview.header ? '' : 'no header row (its first row is data); '}columns ${columns}` : 'no columns'}`];
  const notes = preview.warnings.map((w) => `note: ${clip(w, 300)}`);
  const budget = PREVIEW_MAX_CHARS - notes.reduce((n, note) => n + note.length + 1, 0);
  if (preview.rows.length > 0 && preview.columns.length > 0) {
    const table = [preview.columns.map((c) => tableCell(clip(c.name))), ...preview.rows.map((r) => r.map(tableCell))].map((cells) => clip(cells.join(' | '), 1_000));
    const shown: string[] = [];
    let used = lines[0].length + 30;
    for (const line of table) {
      if (used + line.length + 1 > budget) break;
      shown.push(line);
      used += line.length + 1;
    }
    if (shown.length > 1) lines.push(`first ${plural(shown.length - 1, 'row', 'rows')}:`, ...shown);
  }
  lines.push(...notes);
  return clip(lines.join('\n'), PREVIEW_MAX_CHARS);
}
