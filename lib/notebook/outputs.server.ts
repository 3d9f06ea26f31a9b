/**
 * Stored run outputs in Jupyter's output model (nbformat 4.5), for the notebook exporter
 * (to-ipynb.ts): streams and errors as they are, `blob:` images resolved to base64, tables (data
 * resources, which Jupyter does not render) as an HTML table plus fixed-width text, and files
 * written to /output/ as a line naming them. Stored outputs were validated when they were saved;
 * the schemas here check only their shape, so an export never drops what is stored.
 */
import 'server-only';
import { z } from 'zod';
import { formatBytes } from '@/lib/format';
import { BLOB_REF_PATTERN } from '@/lib/runtime/protocol';
import { noticeForPerson } from '@/lib/runtime/run-failure';
import type { RecordedRun } from '@/lib/targets/run-part';
// ---------------------------------------------------------------------------------------------
// nbformat 4.5 types (the parts we write)

/** nbformat: a JSON media type (`application/…+json`) holds any JSON value; the others text. */
export type MimeData = Record<string, string | string[] | JsonObject>;
type JsonObject = { [key: string]: unknown };
const JSON_MEDIA_TYPE = /^application\/(.+\+)?json$/;
export type NotebookOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string[] }
  | { output_type: 'display_data'; data: MimeData; metadata: Record<string, unknown> }
  | { output_type: 'execute_result'; execution_count: number | null; data: MimeData; metadata: Record<string, unknown> }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };
export type MarkdownCell = { cell_type: 'markdown'; id: string; metadata: Record<string, unknown>; source: string[] };
export type CodeCell = {
  cell_type: 'code';
  id: string;
  metadata: Record<string, unknown>;
  source: string[];
  execution_count: number | null;
  outputs: NotebookOutput[];
};
export type NotebookCell = MarkdownCell | CodeCell;
export type Notebook = {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: {
    kernelspec: { name: 'python3'; display_name: string; language: 'python' };
    language_info: { name: 'python'; mimetype: string; file_extension: string; pygments_lexer: string; codemirror_mode: { name: string; version: number }; nbconvert_exporter: string };
    runpad: { title: string | null };
  };
  cells: NotebookCell[];
};


// ---------------------------------------------------------------------------------------------
// Outputs

/*
 * Stored outputs were validated when they were saved. These schemas check only their shape, not
 * the protocol's size caps (which tighten over time), so an export never drops what is stored.
 */
const streamSchema = z.object({ output_type: z.literal('stream'), name: z.enum(['stdout', 'stderr']), text: z.string() });
const errorSchema = z.object({ output_type: z.literal('error'), ename: z.string(), evalue: z.string(), traceback: z.array(z.string()) });
const fileSchema = z.object({ output_type: z.literal('file'), name: z.string(), size: z.number(), mediaType: z.string() });
const mimeOutputSchema = z.object({ output_type: z.enum(['display_data', 'execute_result']), data: z.record(z.string(), z.unknown()) });
const tableSchema = z.object({
  schema: z.object({ fields: z.array(z.object({ name: z.string(), type: z.string() })) }),
  data: z.array(z.record(z.string(), z.unknown())),
  shape: z.tuple([z.number(), z.number()]).optional(),
});
/** A data-resource table (`TableData` of the protocol fits it). */
export type Table = z.infer<typeof tableSchema>;

/** Rows of a table written into the notebook (the stored table may hold more). */
export const TABLE_ROWS_SHOWN = 50;
const IMAGE_UNAVAILABLE = '[image not available]';

/** Jupyter's own style for multi-line strings: lines, each but the last with its `\n`. */
export function toLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const last = lines.pop() as string;
  return [...lines.map((line) => `${line}\n`), ...(last === '' ? [] : [last])];
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.replace(/[\r\n\t]+/g, ' ');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function tableSummary(table: Table, shown: number): string | null {
  const [rows, columns] = table.shape ?? [table.data.length, table.schema.fields.length];
  if (rows <= shown && columns <= table.schema.fields.length) return null;
  return `[${rows.toLocaleString('en-US')} rows × ${columns.toLocaleString('en-US')} columns; first ${shown.toLocaleString('en-US')} rows shown]`;
}

/** A table as fixed-width text: numbers right-aligned, other values left-aligned. */
export function tableToFixedWidth(table: Table, maxRows = TABLE_ROWS_SHOWN): string {
  const fields = table.schema.fields;
  const rows = table.data.slice(0, maxRows).map((row) => fields.map((field) => cellText(row[field.name])));
  const widths = fields.map((field, i) => Math.max(field.name.length, ...rows.map((row) => row[i].length)));
  const numeric = fields.map((field) => field.type === 'integer' || field.type === 'number');
  const line = (cells: string[], alignRight: boolean[]) =>
    cells.map((cell, i) => (alignRight[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ').trimEnd();
  const lines = [
    line(
      fields.map((f) => f.name),
      fields.map(() => false),
    ),
    widths.map((width) => '-'.repeat(width)).join('-+-'),
    ...rows.map((row) => line(row, numeric)),
  ];
  const summary = tableSummary(table, rows.length);
  if (summary) lines.push(summary);
  return lines.join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A table as escaped HTML, in the shape pandas gives Jupyter (class `dataframe`). */
export function tableToHtml(table: Table, maxRows = TABLE_ROWS_SHOWN): string {
  const fields = table.schema.fields;
  const rows = table.data.slice(0, maxRows);
  const head = fields.map((field) => `<th>${escapeHtml(field.name)}</th>`).join('');
  const body = rows.map((row) => `    <tr>${fields.map((field) => `<td>${escapeHtml(cellText(row[field.name]))}</td>`).join('')}</tr>`);
  const summary = tableSummary(table, rows.length);
  return [
    '<table border="1" class="dataframe">',
    '  <thead>',
    `    <tr>${head}</tr>`,
    '  </thead>',
    '  <tbody>',
    ...body,
    '  </tbody>',
    '</table>',
    ...(summary ? [`<p>${escapeHtml(summary)}</p>`] : []),
  ].join('\n');
}

export type ResolveImage = (sha256: string) => Promise<string | null>;

function base64ToText(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** A MIME bundle for nbformat: blob images resolved (or dropped), tables rendered, JSON-free. */
async function notebookData(data: Record<string, unknown>, resolve: ResolveImage): Promise<MimeData> {
  const out: MimeData = {};
  let droppedImage = false;
  for (const [mediaType, value] of Object.entries(data)) {
    if (mediaType === 'application/vnd.dataresource+json') {
      const table = tableSchema.safeParse(value);
      if (table.success) {
        out['text/html'] = toLines(tableToHtml(table.data));
        // The worker's own text (pandas' repr) is better than ours when it is there.
        if (typeof data['text/plain'] !== 'string') out['text/plain'] = toLines(tableToFixedWidth(table.data));
      }
      continue;
    }
    // A Vega-Lite spec stays JSON, so Jupyter draws the chart; its PNG (for the model) comes along.
    if (JSON_MEDIA_TYPE.test(mediaType) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[mediaType] = value as JsonObject;
      continue;
    }
    if (typeof value !== 'string') continue; // nbformat allows JSON values only for JSON media types
    if (mediaType.startsWith('image/') && BLOB_REF_PATTERN.test(value)) {
      const base64 = await resolve(value.slice('blob:'.length));
      if (base64 === null) droppedImage = true;
      else if (mediaType === 'image/svg+xml') out[mediaType] = toLines(base64ToText(base64));
      else out[mediaType] = base64;
      continue;
    }
    // Binary images stay one base64 string, as Jupyter writes them; text becomes lines.
    out[mediaType] = mediaType.startsWith('image/') && mediaType !== 'image/svg+xml' ? value : toLines(value);
  }
  if (droppedImage && Object.keys(out).length === 0) out['text/plain'] = [IMAGE_UNAVAILABLE];
  return out;
}


export async function notebookOutputs(run: RecordedRun, executionCount: number | null, resolve: ResolveImage): Promise<NotebookOutput[]> {
  const outputs: NotebookOutput[] = [];
  for (const raw of run.outputs) {
    const stream = streamSchema.safeParse(raw);
    if (stream.success) {
      outputs.push({ output_type: 'stream', name: stream.data.name, text: toLines(stream.data.text) });
      continue;
    }
    const error = errorSchema.safeParse(raw);
    if (error.success) {
      outputs.push({ output_type: 'error', ename: error.data.ename, evalue: error.data.evalue, traceback: error.data.traceback });
      continue;
    }
    const file = fileSchema.safeParse(raw);
    if (file.success) {
      const line = `[file] /output/${file.data.name} (${formatBytes(file.data.size)}, ${file.data.mediaType}): download it from the Runpad conversation\n`;
      outputs.push({ output_type: 'stream', name: 'stdout', text: [line] });
      continue;
    }
    const mime = mimeOutputSchema.safeParse(raw);
    if (!mime.success) continue;
    const data = await notebookData(mime.data.data, resolve);
    if (Object.keys(data).length === 0) continue;
    outputs.push(
      mime.data.output_type === 'execute_result'
        ? { output_type: 'execute_result', execution_count: executionCount, data, metadata: {} }
        : { output_type: 'display_data', data, metadata: {} },
    );
  }
  const notice = noticeForPerson(run);
  if (notice) outputs.push({ output_type: 'stream', name: 'stderr', text: toLines(`${notice}\n`) });
  return outputs;
}
