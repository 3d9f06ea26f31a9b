/**
 * The pure logic behind the interactive table output: formatting cells for reading, type-aware
 * sorting, filtering and paging of a `TableData` (a Frictionless data resource, see
 * lib/runtime/protocol.ts). No React here, so all of it is unit-tested.
 */
import type { TableData } from '@/lib/runtime/protocol';

export type Row = TableData['data'][number];
export type Cell = Row[string];
export type Field = TableData['schema']['fields'][number];

export type SortDirection = 'asc' | 'desc';
export type SortState = { column: string; direction: SortDirection } | null;

export type ViewState = {
  sort: SortState;
  /** A case-insensitive substring over every column, or `column:value` for one column. */
  filter: string;
  /** 0-based; clamped to the pages that exist. */
  page: number;
  /** Rows per page; `Infinity` (or anything not a positive number) means all rows in one page. */
  pageSize: number;
};

export type Column = {
  name: string;
  type: string;
  align: 'left' | 'right';
  numeric: boolean;
  /** Part of the index (the schema's `primaryKey`). */
  index: boolean;
};

export type TableView = {
  /** The rows of the requested page, sorted. */
  rows: Row[];
  /** The position of each row of `rows` in `table.data` (a stable React key). */
  rowIndices: number[];
  /** Every row that passes the filter, sorted: what Copy and Download export. */
  matched: Row[];
  /** Rows after filtering. */
  total: number;
  /** At least 1, so "page 1 of 1" holds for an empty result. */
  pages: number;
  /** The page actually shown, after clamping. */
  page: number;
  /** 0-based position in `matched` of the first row of the page. */
  start: number;
  columns: Column[];
};

const NUMERIC_TYPES = new Set(['integer', 'number']);
const DATE_TYPES = new Set(['date', 'datetime']);

export function isNumericType(fieldType: string | undefined): boolean {
  return fieldType !== undefined && NUMERIC_TYPES.has(fieldType);
}

/** Numbers are right-aligned, so their digits line up (with `tabular-nums`). */
export function alignment(fieldType: string | undefined): 'left' | 'right' {
  return isNumericType(fieldType) ? 'right' : 'left';
}

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimalFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const smallFormat = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Number.isInteger(value)) return Math.abs(value) < 1000 ? String(value) : integerFormat.format(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1) return decimalFormat.format(value);
  // Below 1 the leading zeros are not significant: keep 6 significant digits, and switch to
  // scientific notation (as pandas does) before the zeros take over the cell.
  if (magnitude >= 1e-4) return smallFormat.format(value);
  const [mantissa, exponent] = value.toExponential(5).split('e');
  return `${mantissa.replace(/\.?0+$/, '')}e${exponent}`;
}

const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/;

/**
 * A cell as the table shows it. Numbers get thousands separators (en-US), floats at most 6
 * decimals, integers every digit; NaN and ±Infinity are spelled out; booleans are true/false;
 * null is '' (the component shows a muted "—"). A `datetime` ISO string reads "2024-01-05 10:00:00".
 */
export function formatCell(value: Cell | undefined, fieldType?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return fieldType === 'year' ? String(value) : formatNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (fieldType === 'datetime' && ISO_DATETIME.test(value)) return value.replace('T', ' ');
  return value;
}

/** The raw text of a cell, as exported (no separators, no rounding). */
export function rawCell(value: Cell | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

export function tableColumns(table: TableData): Column[] {
  const index = new Set(table.schema.primaryKey ?? []);
  return table.schema.fields.map((field) => ({
    name: field.name,
    type: field.type,
    align: alignment(field.type),
    numeric: isNumericType(field.type),
    index: index.has(field.name),
  }));
}

// ---------------------------------------------------------------------------------------------
// Filtering

type SearchIndex = {
  /** Per row: every cell's formatted and raw text, lower-cased, joined by a separator. */
  rows: string[];
  /** Per row, per column: the cell's formatted and raw text, lower-cased. */
  cells: string[][];
};

const SEPARATOR = '\u0000';
const searchIndexes = new WeakMap<TableData, SearchIndex>();

function cellHaystack(value: Cell | undefined, fieldType: string): string {
  const formatted = formatCell(value, fieldType);
  const raw = rawCell(value);
  // "1,234" and "1234" both find 1234; "2024-01-05 10:00" and "2024-01-05T10:00" a datetime.
  return (raw === formatted ? formatted : `${formatted}${SEPARATOR}${raw}`).toLowerCase();
}

function searchIndex(table: TableData): SearchIndex {
  const cached = searchIndexes.get(table);
  if (cached) return cached;
  const fields = table.schema.fields;
  const cells = table.data.map((row) => fields.map((field) => cellHaystack(row[field.name], field.type)));
  const index = { rows: cells.map((row) => row.join(SEPARATOR)), cells };
  searchIndexes.set(table, index);
  return index;
}

export type ParsedFilter = { column: number | null; needle: string };

/**
 * `city:paris` filters one column when `city` names a column (case-insensitive; the longest
 * name wins, so names with colons work); otherwise the whole text is searched in every column,
 * so "12:30" still finds a time.
 */
export function parseFilter(filter: string, fields: readonly Field[]): ParsedFilter {
  const text = filter.trim().toLowerCase();
  let column: number | null = null;
  let prefixLength = 0;
  for (const [i, field] of fields.entries()) {
    const prefix = `${field.name.trim().toLowerCase()}:`;
    if (prefix.length > 1 && prefix.length > prefixLength && text.startsWith(prefix)) {
      column = i;
      prefixLength = prefix.length;
    }
  }
  return { column, needle: text.slice(prefixLength).trim() };
}

/** Positions in `table.data` of the rows that pass the filter, in their original order. */
export function filterRows(table: TableData, filter: string): number[] {
  const all = table.data.map((_, i) => i);
  const { column, needle } = parseFilter(filter, table.schema.fields);
  if (needle === '' || needle.includes(SEPARATOR)) return needle === '' ? all : [];
  const index = searchIndex(table);
  if (column === null) return all.filter((i) => index.rows[i].includes(needle));
  return all.filter((i) => index.cells[i][column].includes(needle));
}

// ---------------------------------------------------------------------------------------------
// Sorting

const collator = new Intl.Collator(undefined, { numeric: true });

type Kind = 'number' | 'date' | 'other';

function sortKind(fieldType: string | undefined): Kind {
  if (isNumericType(fieldType)) return 'number';
  if (fieldType !== undefined && DATE_TYPES.has(fieldType)) return 'date';
  return 'other';
}

function isMissing(value: Cell | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (typeof value === 'number' && Number.isNaN(value));
}

/** A number to compare by, when the value has one for this kind of column. */
function numericKey(value: NonNullable<Cell>, kind: Kind): number | null {
  if (kind === 'number') {
    if (typeof value === 'number') return value;
    if (typeof value === 'boolean') return Number(value);
    const parsed = Number(value.replaceAll(',', ''));
    return Number.isNaN(parsed) ? null : parsed;
  }
  if (kind === 'date') {
    if (typeof value === 'number') return value;
    if (typeof value !== 'string') return null;
    const time = Date.parse(value);
    return Number.isNaN(time) ? null : time;
  }
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return Number(value);
  return null;
}

type SortEntry = { index: number; rank: 0 | 1 | 2; key: number; text: string };

function compareEntries(a: SortEntry, b: SortEntry, sign: 1 | -1): number {
  // Missing values (rank 2) are last whichever the direction; values without a key of the
  // column's kind (rank 1, compared as text) come after those with one (rank 0).
  if (a.rank !== b.rank) return a.rank - b.rank;
  let order = 0;
  if (a.rank === 0) order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  else if (a.rank === 1) order = collator.compare(a.text, b.text);
  return order !== 0 ? order * sign : a.index - b.index;
}

/**
 * Sorts row positions by a column: numbers numerically, dates chronologically, text with a
 * numeric collation ("item 2" before "item 10"); null, empty and NaN cells last in both
 * directions; ties keep their original order (stable). In a column of another type that mixes
 * kinds, numbers and booleans come before text.
 */
export function sortRows(table: TableData, indices: readonly number[], sort: SortState): number[] {
  if (!sort) return [...indices];
  const field = table.schema.fields.find((f) => f.name === sort.column);
  if (!field) return [...indices];
  const kind = sortKind(field.type);
  const entries: SortEntry[] = indices.map((index) => {
    const value = table.data[index][field.name];
    if (value === null || value === undefined || isMissing(value)) return { index, rank: 2, key: 0, text: '' };
    const key = numericKey(value, kind);
    return key === null ? { index, rank: 1, key: 0, text: rawCell(value) } : { index, rank: 0, key, text: '' };
  });
  const sign = sort.direction === 'asc' ? 1 : -1;
  entries.sort((a, b) => compareEntries(a, b, sign));
  return entries.map((e) => e.index);
}

// ---------------------------------------------------------------------------------------------
// The view

/** Rows per page as a whole number, or null for "all rows in one page". */
function effectivePageSize(pageSize: number): number | null {
  if (!Number.isFinite(pageSize) || pageSize <= 0) return null;
  return Math.max(1, Math.floor(pageSize));
}

/** At least 1: an empty result still has its one (empty) page. */
export function pageCount(total: number, pageSize: number): number {
  const size = effectivePageSize(pageSize);
  return size === null ? 1 : Math.max(1, Math.ceil(total / size));
}

/** A 0-based page within [0, pages - 1]; NaN is the first page, +Infinity the last. */
export function clampPage(page: number, pages: number): number {
  const last = Math.max(1, pages) - 1;
  if (Number.isNaN(page)) return 0;
  return Math.min(Math.max(0, Math.trunc(page)), last);
}

/** Filter, then sort, then cut out one page. */
export function viewTable(table: TableData, state: ViewState): TableView {
  const matchedIndices = sortRows(table, filterRows(table, state.filter), state.sort);
  const total = matchedIndices.length;
  const size = effectivePageSize(state.pageSize) ?? Math.max(total, 1);
  const pages = pageCount(total, state.pageSize);
  const page = clampPage(state.page, pages);
  const start = page * size;
  const rowIndices = matchedIndices.slice(start, start + size);
  return {
    rows: rowIndices.map((i) => table.data[i]),
    rowIndices,
    matched: matchedIndices.map((i) => table.data[i]),
    total,
    pages,
    page,
    start,
    columns: tableColumns(table),
  };
}
