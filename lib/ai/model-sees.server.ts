/**
 * What the model may see of the person's data: `outputs` (everything the code printed or showed,
 * and each dropped file's description) or `schema` (shapes only). The operator sets the default
 * (RUNPAD_MODEL_SEES), a conversation may only be stricter, and the server applies the strictest
 * when it builds the request to the model provider (lib/ai/model-messages.server.ts; the policy
 * itself: lib/messages/model-input-schema.ts). Pure.
 *
 * Under `schema` this module is an allow-list, the one for every target (Python, SQL, R,
 * Graphviz, JavaScript): the targets hand it structured outputs (lib/runtime/protocol.ts: streams,
 * tables, figures, errors with their class, files written; lib/runtime/run-failure.ts) and it
 * writes what the model may read of them. The model receives
 *  1. what it already knows: words of the code in the conversation (knownWords), the names of a
 *     dropped file's columns when they come from a header row the reader detected, the names of
 *     the files the person gave (and the table names made from them);
 *  2. facts about shape, worded here: counts, types, sizes, durations, an error's class and the
 *     line of the code it names.
 * Any other word, in an error message, a column name, a file name, a chart's field, a warning, is
 * replaced by a typed placeholder (<value>, <number>): values are not always quoted, quotes are
 * not always ASCII, and names are data (a pivot's columns are the values it pivoted on).
 * Never a row, a cell, printed text, an image, chart data, a diagram's source or a file's rows.
 */
import 'server-only';
import { failureForModel, type RunFailure } from '@/lib/runtime/run-failure';
import { BLOB_REF_PATTERN, type MimeBundle, type RunResult } from '@/lib/runtime/protocol';
import { MODEL_VIEW_CAPS } from '@/lib/runtime/limits';
import { formatBytes, formatDuration } from '@/lib/format';
import { describeChartShape, vegaLiteSpecOf } from '@/lib/charts/vegalite';
import { columnsText, type Attachment } from '@/lib/messages/attachment';
import { ENGINE_ERROR_CLASSES } from '@/lib/ai/engine-error-classes';

/** A word: letters, digits and combining marks of any script. Everything else separates words. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const DIGITS = /^\p{N}+$/u;

/** The words the model already knows in a conversation: the allow-list's first half. */
export type KnownWords = ReadonlySet<string>;

/**
 * Names of types, the engines' words for a shape: `could not convert to INT32`, `dtype float64`,
 * a column's `(string)`. They say what kind a value is, never which.
 */
const TYPE_WORDS = [
  'int', 'float', 'str', 'bool', 'bytes', 'object', 'NoneType', 'dict', 'list', 'tuple', 'set', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
  'float16', 'float32', 'float64', 'complex128', 'datetime64', 'timedelta64', 'ns', 'category', 'Int64', 'Float64', 'string', 'number', 'integer', 'boolean', 'date',
  'datetime', 'time', 'timestamp', 'empty', 'other', 'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'FLOAT',
  'DOUBLE', 'DECIMAL', 'VARCHAR', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'TIME', 'INTERVAL', 'BLOB', 'UUID', 'INT8', 'INT16', 'INT32', 'INT64', 'INT128', 'UINT8', 'UINT16',
  'UINT32', 'UINT64', 'character', 'numeric', 'logical', 'factor', 'double', 'nominal', 'quantitative', 'ordinal', 'temporal',
];

/** Vega-Lite's own words for a chart's shape: marks, channels, aggregates. */
const CHART_WORDS = [
  'arc', 'area', 'bar', 'boxplot', 'circle', 'errorband', 'errorbar', 'geoshape', 'image', 'line', 'point', 'rect', 'rule', 'square', 'text', 'tick', 'trail', 'x', 'y',
  'x2', 'y2', 'color', 'fill', 'stroke', 'opacity', 'size', 'shape', 'theta', 'radius', 'row', 'column', 'facet', 'detail', 'tooltip', 'order', 'xOffset', 'yOffset',
  'count', 'sum', 'mean', 'average', 'median', 'min', 'max', 'distinct', 'stdev', 'variance', 'q1', 'q3', 'valid', 'missing',
];

/** DuckDB's classes of errors, the words before "Error:" in its messages (its ExceptionType names). */
const DUCKDB_ERROR_CLASSES = new Set([
  'Invalid', 'Out of Range', 'Conversion', 'Unknown Type', 'Decimal', 'Mismatch Type', 'Divide by Zero', 'Object Size', 'Invalid type', 'Serialization', 'TransactionContext',
  'Not implemented', 'Expression', 'Catalog', 'Parser', 'Planner', 'Scheduler', 'Executor', 'Constraint', 'Index', 'Stat', 'Connection', 'Syntax', 'Settings', 'Binder',
  'Network', 'Optimizer', 'NullPointer', 'IO', 'INTERRUPT', 'FATAL', 'INTERNAL', 'Invalid Input', 'Out of Memory', 'Permission', 'Parameter Not Resolved',
  'Parameter Not Allowed', 'Dependency', 'HTTP', 'Missing Extension', 'Auto-load', 'Sequence', 'Invalid Configuration',
]);

/** The engines' own names, as the runners write them in a failure. */
const ENGINES = new Set(['Python', 'Pyodide', 'DuckDB', 'SQL', 'R', 'webR', 'Graphviz', 'JavaScript']);

const TYPES = new Set(TYPE_WORDS);
const CHARTS = new Set([...TYPE_WORDS, ...CHART_WORDS]);

function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * The allow-list's words for a conversation: every word of the code in it (the model wrote it, or
 * the person did), the names of the files the person gave (as written and lower-cased, as the
 * table names made from them are), and the column names of files whose header row was detected.
 */
export function knownWords(input: { code: readonly string[]; files: readonly Attachment[] }): KnownWords {
  const known = new Set<string>();
  for (const code of input.code) for (const word of wordsOf(code)) known.add(word);
  for (const file of input.files) {
    for (const word of wordsOf(file.name)) known.add(word).add(word.toLowerCase());
    if (file.header === true) for (const column of file.columns ?? []) for (const word of wordsOf(column.name)) known.add(word);
  }
  return known;
}

/** Longest text kept (a message, a name); the rest is cut with an ellipsis. */
const MESSAGE_CHARS = 300;
const NAME_CHARS = 120;

/** ASCII punctuation but quotes is kept between words (it carries no value); quotes and any other character are dropped. */
const KEPT_SEPARATOR = /[!#-&(-/:-@[-_{-~ ]/;

/**
 * Text the model may read under `schema`: each word it already knows (`known`, or one of `extra`:
 * a fixed vocabulary of shape words) is kept, every other word becomes <number> (digits only) or
 * <value>, and placeholders next to each other become one. Whitespace runs are one space; other
 * characters than ASCII punctuation (quotes of every kind, symbols, control characters) are dropped.
 */
export function allowedText(text: string, known: KnownWords, extra: ReadonlySet<string> = TYPES, max = MESSAGE_CHARS): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    out += separator(text.slice(last, match.index));
    const word = match[0];
    out += known.has(word) || extra.has(word) ? word : DIGITS.test(word) ? '<number>' : '<value>';
    last = match.index + word.length;
  }
  out += separator(text.slice(last));
  // Placeholders joined only by punctuation or spaces say nothing more than one placeholder.
  const merged = out
    .replace(/<(?:value|number)>(?:[^\p{L}\p{N}<>]{0,4}<(?:value|number)>)+/gu, (run) => (run.includes('<value>') ? '<value>' : '<number>'))
    .replace(/ +/g, ' ')
    .trim();
  return merged.length > max ? `${merged.slice(0, max)}…` : merged;
}

function separator(text: string): string {
  let out = '';
  for (const char of text) out += /\s/.test(char) ? ' ' : KEPT_SEPARATOR.test(char) ? char : '';
  return out;
}

/** A name (a column, a file, a chart's field): known words kept, the rest placeholders. */
function allowedName(name: string, known: KnownWords, extra: ReadonlySet<string> = TYPES): string {
  return allowedText(name, known, extra, NAME_CHARS) || '<value>';
}

const ERROR_CLASS_SUFFIX = /(?:Error|Exception|Warning|Interrupt|Exit|Iteration)$/;

/**
 * An error's class: one the engines define (ENGINE_ERROR_CLASSES) or one made of words the model
 * knows (a class its code defined). Any other name is a value, whatever its shape: code can name a
 * class from data (Python's `type(value + 'Error', …)`, JavaScript's `error.name = value`, an R
 * condition's class), so it becomes <value> with the kind its ending says (`<value>Error`).
 */
export function errorClass(ename: string, known: KnownWords): string {
  if (ENGINE_ERROR_CLASSES.has(ename)) return ename;
  const words = wordsOf(ename);
  if (words.length > 0 && words.every((word) => known.has(word)) && /^[\p{L}\p{N}\p{M}_.]{1,80}$/u.test(ename)) return ename;
  const kind = ERROR_CLASS_SUFFIX.exec(ename)?.[0];
  return kind ? `<value>${kind}` : allowedName(ename, known);
}

/** An error's message: DuckDB's class of error (`Conversion Error:`) kept, the rest allow-listed. */
function errorMessage(evalue: string, known: KnownWords): string {
  const duckdb = /^([A-Za-z][A-Za-z -]{0,40}) Error: /.exec(evalue);
  if (duckdb && DUCKDB_ERROR_CLASSES.has(duckdb[1])) return `${duckdb[1]} Error: ${allowedText(evalue.slice(duckdb[0].length), known)}`;
  return allowedText(evalue, known);
}

/** A line of the code an error names: as it is when the model knows each of its words (it wrote it), else allow-listed. */
function codeLine(line: string, known: KnownWords): string {
  return wordsOf(line).every((word) => known.has(word) || TYPES.has(word)) && !/[\r\n]/.test(line) ? line.slice(0, MESSAGE_CHARS) : allowedText(line, known);
}

/** A failure (lib/runtime/run-failure.ts) with each free-text field allow-listed, worded as for the model. */
function failureForSchema(failure: RunFailure, known: KnownWords): string {
  const text = (value: string | undefined) => (value === undefined ? undefined : allowedText(value, known));
  const engine = (name: string) => (ENGINES.has(name) ? name : allowedName(name, known));
  switch (failure.kind) {
    case 'code':
      return failureForModel({ ...failure, engine: engine(failure.engine), ename: errorClass(failure.ename, known), evalue: errorMessage(failure.evalue, known), excerpt: failure.excerpt === undefined ? undefined : codeLine(failure.excerpt, known) });
    case 'crashed':
    case 'engine-start':
      return failureForModel({ ...failure, engine: engine(failure.engine), detail: text(failure.detail) });
    case 'package-unavailable':
      return failureForModel({ ...failure, engine: engine(failure.engine), packages: failure.packages.map((p) => ({ name: allowedName(p.name, known), detail: text(p.detail) })) });
    case 'dataset-missing':
      return failureForModel({ ...failure, name: allowedName(failure.name, known) });
    case 'memory-limit':
    case 'output-refused':
    case 'reply-invalid':
      return failureForModel({ ...failure, engine: engine(failure.engine) });
    case 'input-invalid':
      return failureForModel({ ...failure, tool: allowedName(failure.tool, known) });
    default:
      return failureForModel(failure);
  }
}

/** Lines and bytes of a text, the only thing `schema` tells of printed or displayed text. */
function measure(text: string): string {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}, ${formatBytes(Buffer.byteLength(text, 'utf8'))}`;
}

function imageFacts(mediaType: string, value: string): string {
  const kind = mediaType.replace('image/', '').replace('+xml', '').toUpperCase();
  return BLOB_REF_PATTERN.test(value) ? kind : `${kind}, ${formatBytes(Math.floor((value.length * 3) / 4))}`;
}

/** One display_data / execute_result under `schema`: by MIME type, shapes and known names only. */
function displayShape(label: string, data: MimeBundle, known: KnownWords): string {
  const table = data['application/vnd.dataresource+json'];
  if (table) {
    const [rows, columns] = table.shape ?? [table.data.length, table.schema.fields.length];
    return `${label}: a table of ${rows.toLocaleString('en-US')} rows × ${columns.toLocaleString('en-US')} columns; columns: ${table.schema.fields.map((f) => `${allowedName(f.name, known)} (${allowedName(f.type, known)})`).join(', ')}`;
  }
  const chart = vegaLiteSpecOf(data);
  const png = data['image/png'] ?? data['image/jpeg'];
  const pngType = data['image/png'] ? 'image/png' : 'image/jpeg';
  if (chart) return `${label}: a chart shown to the user (${describeChartShape(chart, (word) => allowedName(word, known, CHARTS))})${png ? `, drawn as ${imageFacts(pngType, png)}` : ''}; its data and image are not sent`;
  if (data['text/vnd.graphviz'] !== undefined || data['image/svg+xml'] !== undefined) {
    const svg = data['image/svg+xml'];
    const facts = [data['text/vnd.graphviz'] !== undefined ? 'Graphviz' : null, svg !== undefined ? `SVG, ${formatBytes(Buffer.byteLength(svg, 'utf8'))}` : null].filter(Boolean).join('; ');
    return `${label}: a diagram shown to the user (${facts}); its source and image are not sent`;
  }
  if (png) return `${label}: a figure shown to the user (${imageFacts(pngType, png)}); its image is not sent`;
  if (data['text/markdown'] !== undefined) return `${label}: markdown shown to the user (${measure(data['text/markdown'])}); its text is not sent`;
  if (data['text/plain'] !== undefined) return `${label}: text shown to the user (${measure(data['text/plain'])}); its text is not sent`;
  return `${label}: ${Object.keys(data).filter((type) => /^[\w.+-]+\/[\w.+-]+$/.test(type)).join(', ') || 'nothing'} shown to the user`;
}

/** Lines of the code a Python traceback names (where, never what): `line 3` of the cell. */
function tracebackLines(traceback: string[]): string[] {
  const lines = traceback.flatMap((entry) => entry.split('\n')).flatMap((line) => /^\s*File "<cell-?\d*>", line (\d+)/.exec(line)?.[1] ?? []);
  return lines.slice(-MODEL_VIEW_CAPS.tracebackFrames).map((line) => `at line ${line} of the code`);
}

/** A run under `schema`: what the model may know of it (see the module comment). Never images. */
export function runToSchemaView(result: RunResult, known: KnownWords): { text: string; images: [] } {
  const lines = ['[This conversation sends the model only the shape of outputs: no printed text, values, rows or images; words it does not know are <value>.]'];
  if (result.restored) {
    lines.push(`The interpreter was restored by re-running ${result.restored.runs} earlier runs${result.restored.failed.length > 0 ? `; ${result.restored.failed.length} failed` : ''}.`);
  } else if (result.freshInterpreter && result.freshInterpreter.missingRuns > 0) {
    lines.push(`This ran in a new interpreter without the state of the ${result.freshInterpreter.missingRuns} earlier run(s): files in /data are back; variables, imports and /tmp are gone.`);
  }
  if (result.userRun === 'edited') lines.push('The user edited this code and ran their version; the code above is theirs and this is its result.');
  if (result.userRun === 'rerun') lines.push('The user ran this code again; this is the result of that run.');
  lines.push(`status: ${result.status} (${formatDuration(result.durationMs)})`);
  // How it failed: each failure's fields allow-listed, then worded; an older free-text notice allow-listed.
  const notices = [...(result.failures ?? []).map((failure) => failureForSchema(failure, known)), ...(result.notice ? [allowedText(result.notice, known)] : [])];
  if (notices.length > 0) lines.push(`notice: ${notices.join(' ')}`);
  // Adjacent printed text of one stream is one block: how much, never what.
  const pending: { name: string; text: string }[] = [];
  const flush = () => {
    for (const block of pending.splice(0)) lines.push(`${block.name}: ${measure(block.text)} printed (not sent)`);
  };
  for (const output of result.outputs) {
    if (output.output_type === 'stream') {
      const last = pending.at(-1);
      if (last?.name === output.name) last.text += output.text;
      else {
        flush();
        pending.push({ name: output.name, text: output.text });
      }
      continue;
    }
    flush();
    switch (output.output_type) {
      case 'display_data':
      case 'execute_result':
        lines.push(displayShape(output.output_type === 'execute_result' ? 'result' : 'display', output.data, known));
        break;
      case 'error': {
        const places = tracebackLines(output.traceback);
        lines.push(`error: ${errorClass(output.ename, known)}: ${errorMessage(output.evalue, known)}${places.length > 0 ? `\n${places.join('\n')}` : ''}`);
        break;
      }
      case 'file':
        lines.push(`wrote /output/${allowedName(output.name, known)} (${formatBytes(output.size)})`);
        break;
    }
  }
  flush();
  return { text: lines.join('\n'), images: [] };
}

/**
 * Dropped files under `schema`: each one's path (the name the person gave), size, type, row count,
 * and its columns with types: their names when the reader found a header row, else the reader's
 * own (column0, column1, …). Never a row, a note or a preview.
 */
export function attachmentsToSchemaText(files: Attachment[]): string {
  const lines = ['[Files attached to this message, available to Python under /data/ (only their columns are described: rows are not sent):]'];
  for (const file of files) {
    const facts = [formatBytes(file.size), file.mediaType, file.rows === undefined ? null : `${file.rows.toLocaleString('en-US')} rows`].filter(Boolean).join(', ');
    const columns = columnsText({ ...file, columns: file.columns?.map((column) => ({ ...column, type: allowedName(column.type, new Set()) })) });
    lines.push(`/data/${file.name} (${facts})${columns ? `: ${columns}` : ''}`);
  }
  return lines.join('\n');
}
