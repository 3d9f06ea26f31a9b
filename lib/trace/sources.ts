/**
 * The numbers a run showed, with where each one is: printed text (stdout, a text/plain or
 * text/markdown result), a table cell (`application/vnd.dataresource+json`, also what SQL returns),
 * a table's size as the page shows it above the table ("24 rows × 3 columns": counts are outputs
 * too), or a row of a chart's inline data (Vega-Lite). Diagrams are left out (a Graphviz drawing's
 * labels and size are no results), and so are images, files, errors and stderr (tracebacks and
 * warnings are full of line numbers).
 */
import { z } from 'zod';
import { VEGALITE_MIME_TYPES } from '@/lib/runtime/protocol';
import { formatCell } from '@/lib/tables/table-view';
import { readRunPart } from '@/lib/targets/run-part';
import { magnitude, numberTokens, type NumberToken } from './numbers';
import { dateSpans, insideSpan } from './prose';

export type SourceLocation =
  /** Offsets in the output's text (a stream's text, or a result's text/plain or text/markdown). */
  | { kind: 'text'; start: number; end: number; line: number }
  /** A table cell: the row's position in the table's data (0-based) and the column's name. */
  | { kind: 'table'; row: number; column: string }
  /** A table's size, shown above it ("24 rows × 3 columns"): its full count of rows or of columns. */
  | { kind: 'shape'; dimension: 'rows' | 'columns' }
  /** A value of a chart's inline data: the record's position (0-based) and its field. */
  | { kind: 'chart'; row: number; field: string };

type Value = Pick<NumberToken, 'raw' | 'scale' | 'percent'> & {
  /** The magnitude in base units (3.2M → 3,200,000), sign dropped. */
  value: number;
};

export type SourceNumber = Value & {
  /** A numeric table or chart cell as stored (`raw` is then empty: formatted only when shown). */
  cell: number | null;
  outputIndex: number;
  location: SourceLocation;
};

/** The number as the output shows it: a numeric cell as the table formats it ("3,214,567.89"). */
export function shownText(number: SourceNumber): string {
  return number.cell === null ? number.raw : formatCell(number.cell);
}

/** A message as stored or as the AI SDK holds it; parts are read defensively. */
export type TraceMessage = { id: string; role: string; parts: readonly unknown[] };

export type RunSource = {
  toolCallId: string;
  /** The tool's name: python, sql, r… */
  tool: string;
  numbers: SourceNumber[];
};

const DIAGRAM_MIME_TYPES = ['image/svg+xml', 'text/vnd.graphviz'] as const;
/** A cell string longer than this is prose, not a number with a unit. */
const CELL_TEXT_MAX = 64;

const cache = new WeakMap<object, RunSource | null>();

/**
 * The run of one message part (read through lib/targets/run-part.ts), or null when the part is no
 * finished run, or a run of a target whose outputs are diagrams (the registry says which).
 */
export function runSourceOf(part: unknown): RunSource | null {
  const read = readRunPart(part);
  if (!read?.recorded) return null;
  const cached = cache.get(read.part);
  if (cached !== undefined) return cached;
  const source = read.target.diagrams ? null : { toolCallId: read.part.toolCallId, tool: read.target.toolName, numbers: outputNumbers(read.recorded.outputs) };
  cache.set(read.part, source);
  return source;
}

/**
 * What tracing reads of a stored output, validated; a table's cells and a chart's records are
 * then read one by one with type checks (a full parse of 200,000 cells costs more than the trace).
 */
const streamSchema = z.object({ output_type: z.literal('stream'), name: z.enum(['stdout', 'stderr']), text: z.string() });
const tableSchema = z.object({
  schema: z.object({ fields: z.array(z.object({ name: z.string() })), primaryKey: z.array(z.string()).optional() }),
  data: z.array(z.unknown()),
  /** The full size before the caps: [rows, columns]. */
  shape: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
});
type Table = z.infer<typeof tableSchema>;
const bundleSchema = z.object({
  output_type: z.enum(['display_data', 'execute_result']),
  data: z.looseObject({
    'text/plain': z.string().optional(),
    'text/markdown': z.string().optional(),
    'application/vnd.dataresource+json': tableSchema.optional(),
  }),
});

function outputNumbers(outputs: readonly unknown[]): SourceNumber[] {
  const numbers: SourceNumber[] = [];
  outputs.forEach((value, outputIndex) => {
    // A loop, not push(...): a table holds up to 200,000 numbers, more than a call's arguments.
    for (const number of numbersOfOutput(value, outputIndex)) numbers.push(number);
  });
  return numbers;
}

function numbersOfOutput(output: unknown, outputIndex: number): SourceNumber[] {
  const stream = streamSchema.safeParse(output);
  if (stream.success) return stream.data.name === 'stdout' ? textNumbers(stream.data.text, outputIndex) : [];
  const bundle = bundleSchema.safeParse(output);
  return bundle.success ? bundleNumbers(bundle.data.data, outputIndex) : [];
}

function bundleNumbers(data: z.infer<typeof bundleSchema>['data'], outputIndex: number): SourceNumber[] {
  if (DIAGRAM_MIME_TYPES.some((type) => data[type] !== undefined)) return [];
  const table = data['application/vnd.dataresource+json'];
  if (table) return tableNumbers(table, outputIndex);
  const chart = VEGALITE_MIME_TYPES.map((type) => data[type]).find((spec) => spec && typeof spec === 'object');
  if (chart) return chartNumbers(chart, outputIndex);
  // A figure's text/plain is its repr ("<Figure size 640x480>"), not a result.
  if (data['image/png'] !== undefined || data['image/jpeg'] !== undefined) return [];
  const text = data['text/markdown'] ?? data['text/plain'];
  return text === undefined ? [] : textNumbers(text, outputIndex);
}

/** Of a long text, the head and the tail are read (the model itself sees far less of it). */
const TEXT_HEAD_CHARS = 200_000;
const TEXT_TAIL_CHARS = 50_000;

/** Numbers of printed text; those glued to a name (x2, col_3) or inside a date are no values. */
export function textNumbers(text: string, outputIndex: number): SourceNumber[] {
  if (text.length <= TEXT_HEAD_CHARS + TEXT_TAIL_CHARS) return textPartNumbers(text, 0, 1, outputIndex);
  const tailStart = text.length - TEXT_TAIL_CHARS;
  let tailLine = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < tailStart; at = text.indexOf('\n', at + 1)) tailLine += 1;
  return [...textPartNumbers(text.slice(0, TEXT_HEAD_CHARS), 0, 1, outputIndex), ...textPartNumbers(text.slice(tailStart), tailStart, tailLine, outputIndex)];
}

function textPartNumbers(text: string, offset: number, firstLine: number, outputIndex: number): SourceNumber[] {
  const dates = dateSpans(text);
  const numbers: SourceNumber[] = [];
  let line = firstLine;
  let lineCountedTo = 0;
  for (const token of numberTokens(text)) {
    const prev = text[token.start - 1] ?? '';
    if (/[\p{L}_]/u.test(prev) || (dates.length > 0 && insideSpan(dates, token))) continue;
    for (let at = text.indexOf('\n', lineCountedTo); at !== -1 && at < token.start; at = text.indexOf('\n', at + 1)) {
      line += 1;
      lineCountedTo = at + 1;
    }
    numbers.push(sourceNumber(valueOf(token), token.raw, outputIndex, { kind: 'text', start: offset + token.start, end: offset + token.end, line }));
  }
  return numbers;
}

/** One object shape for every source number: the matcher's hot loop stays monomorphic. */
function sourceNumber(value: Value, raw: string, outputIndex: number, location: SourceLocation): SourceNumber {
  return { raw, value: value.value, scale: value.scale, percent: value.percent, cell: null, outputIndex, location };
}

function valueOf(token: NumberToken): Value {
  return { raw: token.raw, value: magnitude(token), scale: token.scale, percent: token.percent };
}

/** The numbers of a table cell or a chart value: a number, or a short string such as "12.4%". */
function cellValues(value: unknown): Value[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [{ raw: '', value: Math.abs(value), scale: 1, percent: false }] : [];
  if (typeof value === 'string' && value.length <= CELL_TEXT_MAX) {
    // A date cell ("2024-03") holds no value: its parts are no counts.
    const dates = dateSpans(value);
    return numberTokens(value)
      .filter((token) => dates.length === 0 || !insideSpan(dates, token))
      .map(valueOf);
  }
  return [];
}

function cellOf(row: unknown, column: string): unknown {
  return row && typeof row === 'object' ? (row as Record<string, unknown>)[column] : undefined;
}

/** pandas' default index (0, 1, 2…) numbers rows; it is no result. */
function isRowNumberIndex(table: Table, field: string): boolean {
  return (table.schema.primaryKey ?? []).includes(field) && table.data.every((row, i) => cellOf(row, field) === i);
}

function tableNumbers(table: Table, outputIndex: number): SourceNumber[] {
  const fields = table.schema.fields.map((field) => field.name).filter((name) => !isRowNumberIndex(table, name));
  const numbers: SourceNumber[] = [];
  // Read after the cells: a figure both counts and a cell show is traced to the cell.
  const shape = tableShape(table);
  table.data.forEach((row, rowIndex) => {
    for (const column of fields) {
      const cell = cellOf(row, column);
      if (typeof cell === 'number') {
        if (Number.isFinite(cell)) numbers.push({ raw: '', value: Math.abs(cell), scale: 1, percent: false, cell, outputIndex, location: { kind: 'table', row: rowIndex, column } });
        continue;
      }
      for (const value of cellValues(cell)) numbers.push(sourceNumber(value, value.raw, outputIndex, { kind: 'table', row: rowIndex, column }));
    }
  });
  for (const dimension of ['rows', 'columns'] as const) {
    const size = shape[dimension];
    numbers.push({ raw: count.format(size), value: size, scale: 1, percent: false, cell: null, outputIndex, location: { kind: 'shape', dimension } });
  }
  return numbers;
}

const count = new Intl.NumberFormat('en-US');

/**
 * The size the table shows above itself (components/outputs/table-output.tsx): the full shape
 * when the output carries it, else the rows held and the columns that are not an index.
 */
export function tableShape(table: Pick<Table, 'schema' | 'data' | 'shape'>): { rows: number; columns: number } {
  if (table.shape) return { rows: table.shape[0], columns: table.shape[1] };
  const index = new Set(table.schema.primaryKey ?? []);
  return { rows: table.data.length, columns: table.schema.fields.filter((field) => !index.has(field.name)).length };
}

/** Every inline dataset of a Vega-Lite spec: `data.values` anywhere (layers, concats) and `datasets`. */
function chartDatasets(spec: unknown, found: unknown[][] = [], depth = 0): unknown[][] {
  if (depth > 12 || !spec || typeof spec !== 'object') return found;
  if (Array.isArray(spec)) {
    for (const item of spec) chartDatasets(item, found, depth + 1);
    return found;
  }
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'data' && value && typeof value === 'object' && Array.isArray((value as { values?: unknown }).values)) {
      found.push((value as { values: unknown[] }).values);
    } else if (key === 'datasets' && value && typeof value === 'object') {
      for (const dataset of Object.values(value)) if (Array.isArray(dataset)) found.push(dataset);
    } else if (typeof value === 'object') {
      chartDatasets(value, found, depth + 1);
    }
  }
  return found;
}

function chartNumbers(spec: object, outputIndex: number): SourceNumber[] {
  const numbers: SourceNumber[] = [];
  for (const dataset of chartDatasets(spec)) {
    dataset.forEach((record, row) => {
      const entries = record && typeof record === 'object' ? Object.entries(record) : [['data', record] as const];
      for (const [field, value] of entries) {
        for (const number of cellValues(value)) numbers.push(sourceNumber(number, number.raw || String(value), outputIndex, { kind: 'chart', row, field }));
      }
    });
  }
  return numbers;
}
