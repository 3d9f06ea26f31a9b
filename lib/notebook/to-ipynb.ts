/**
 * A stored conversation as a Jupyter notebook (nbformat 4.5): the talk as markdown cells, each run
 * as a code cell with its stored outputs, so the notebook opens showing what the user saw and can
 * be run again in Jupyter.
 *
 * - Each run becomes the Python its target's notebook form gives (`notebook` of
 *   lib/targets/<id>/meta.ts): Python runs keep their code, SQL runs call `_runpad_sql`, Graphviz
 *   runs draw their DOT when Graphviz is installed. A target whose cells need setup (SQL) gets one
 *   setup code cell (source hidden), before the first code cell, only when such cells exist.
 * - Outputs map to Jupyter's output model, with `blob:` images resolved to base64 and tables
 *   (data resources, which Jupyter does not render) as an HTML table plus fixed-width text. The
 *   stored outputs keep Runpad's drawings (SVG text, PNG if any), so nothing is lost.
 *
 * The conversation is first turned into a list of cells (`conversationCells`), which the script
 * exporter (`to-script.ts`) shares. Its last cell lists the answers' figures that no output shows
 * (lib/trace), when there are any.
 */
import { z } from 'zod';
import type { StoredMessage } from '@/lib/db/queries/messages';
import { attachmentsOf, type Attachment } from '@/lib/files/attachment';
import { formatBytes } from '@/lib/format';
import { BLOB_REF_PATTERN } from '@/lib/runtime/protocol';
import { noticeForPerson } from '@/lib/runtime/run-failure';
import { TARGET_LIST, type TargetId } from '@/lib/targets/registry';
import { readRunPart, type RecordedRun } from '@/lib/targets/run-part';
import type { NotebookSetup } from '@/lib/targets/target';
import { traceConversation, untracedMarkdown } from '@/lib/trace';

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
// The conversation as cells (shared with the script exporter)

/** A run as stored (lib/targets/run-part.ts): outputs are read leniently, so an export never drops what is stored. */
export type StoredRun = RecordedRun;

export type ConversationCell =
  | { kind: 'markdown'; id: string; markdown: string }
  /** A target's setup (e.g. `_runpad_sql`), the first code cells, only when cells of its target exist. */
  | { kind: 'setup'; id: string; name: string; source: string }
  | {
      kind: 'code';
      id: string;
      target: TargetId;
      /** The target's fence language (python, sql, dot): the notebook's `runpad.language`. */
      language: string;
      /** What the model (or the user) wrote: Python, SQL or DOT. */
      code: string;
      /** The Python that runs it outside Runpad. */
      source: string;
      /** The Python of the script form, when it differs from `source`. */
      scriptSource: string;
      run: StoredRun | null;
      /** The tool call failed before running (AI SDK `output-error`). */
      toolError?: string;
    };

const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

export { dotCellSource } from '@/lib/targets/graphviz/notebook';

/** nbformat 4.5 cell ids: 1–64 of `[a-zA-Z0-9-_]`, unique within the notebook. */
class CellIds {
  private readonly taken = new Set<string>();

  next(raw: string): string {
    const base = raw.replace(/[^a-zA-Z0-9_-]+/g, '-').slice(0, 56) || 'cell';
    let id = base;
    for (let n = 2; this.taken.has(id); n += 1) id = `${base}-${n}`;
    this.taken.add(id);
    return id;
  }
}

/** `text` as inline code, with a fence longer than any run of backticks in it. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function attachmentList(files: Attachment[], tables: Map<string, string> | null): string[] {
  return files.map((file) => {
    const table = tables?.get(file.name);
    return `- ${inlineCode(file.name)} (${formatBytes(file.size)})${table ? `, SQL table ${inlineCode(table)}` : ''}`;
  });
}

function userMarkdown(message: StoredMessage): string | null {
  const text = message.parts
    .flatMap((part) => {
      const parsed = textPartSchema.safeParse(part);
      return parsed.success && parsed.data.text.trim() ? [parsed.data.text.trim()] : [];
    })
    .join('\n\n');
  const files = attachmentsOf(message.metadata);
  if (!text && files.length === 0) return null;
  // A line of its own, so a user message that starts with a heading or a list still renders as one.
  const blocks = ['**You:**'];
  if (text) blocks.push(text);
  if (files.length > 0) blocks.push(['Attached (under `/data/` in Runpad):', ...attachmentList(files, null)].join('\n'));
  return blocks.join('\n\n');
}

/** Per data file, the names setups give it (e.g. its SQL table), joined. */
function fileNames(setups: readonly NotebookSetup[], names: string[]): Map<string, string> | null {
  const maps = setups.flatMap((setup) => (setup.namesOfFiles ? [setup.namesOfFiles(names)] : []));
  if (maps.length === 0) return null;
  const joined = new Map<string, string>();
  for (const map of maps) for (const [file, name] of map) joined.set(file, joined.has(file) ? `${joined.get(file)}, ${name}` : name);
  return joined;
}

function introMarkdown(title: string | null, files: Attachment[], setups: readonly NotebookSetup[]): string | null {
  if (title === null && files.length === 0 && setups.length === 0) return null;
  const blocks: string[] = [];
  if (title !== null && oneLine(title)) blocks.push(`# ${oneLine(title)}`);
  blocks.push('Exported from Runpad, where this code ran in the browser.');
  if (files.length > 0) {
    const unique = [...new Map(files.map((file) => [file.name, file])).values()];
    blocks.push(
      [
        'Files of this conversation (Runpad kept them under `/data/`; copy them there, or edit the paths, to run the Python cells):',
        ...attachmentList(unique, fileNames(setups, unique.map((f) => f.name))),
      ].join('\n'),
    );
  }
  for (const setup of setups) blocks.push(setup.intro);
  return blocks.join('\n\n');
}

/** The conversation as an ordered list of cells; ids are unique and nbformat-valid. */
export function conversationCells(input: { title: string | null; messages: StoredMessage[] }): ConversationCell[] {
  const ids = new CellIds();
  const introId = ids.next('runpad-intro');
  const setupIds = new Map(TARGET_LIST.flatMap((target) => (target.notebook.setup ? [[target.id, ids.next(`runpad-${target.notebook.setup.name}`)] as const] : [])));
  const body: ConversationCell[] = [];
  const files: Attachment[] = [];

  for (const message of input.messages) {
    if (message.role === 'user') {
      files.push(...attachmentsOf(message.metadata).filter((file) => !files.some((known) => known.name === file.name)));
      const markdown = userMarkdown(message);
      if (markdown) body.push({ kind: 'markdown', id: ids.next(message.id), markdown });
      continue;
    }
    if (message.role !== 'assistant') continue;
    // Consecutive text parts (reasoning and step boundaries in between are skipped) make one cell.
    let pending: { index: number; texts: string[] } | null = null;
    const flush = () => {
      if (pending && pending.texts.length > 0) body.push({ kind: 'markdown', id: ids.next(`${message.id}-${pending.index}`), markdown: pending.texts.join('\n\n') });
      pending = null;
    };
    message.parts.forEach((part, index) => {
      const text = textPartSchema.safeParse(part);
      if (text.success) {
        if (!text.data.text.trim()) return;
        pending ??= { index, texts: [] };
        pending.texts.push(text.data.text.trim());
        return;
      }
      const read = readRunPart(part);
      if (!read) return;
      flush();
      const { target, part: run } = read;
      const code = read.code ?? '';
      const toolError = run.state === 'output-error' ? (run.errorText ?? 'The tool call failed.') : undefined;
      if (!code.trim() && !read.recorded && !toolError) return; // a call cut off before any code arrived
      const { cellSource, scriptSource } = target.notebook;
      body.push({
        kind: 'code',
        id: ids.next(run.toolCallId),
        target: target.id,
        language: target.fence,
        code,
        source: cellSource(code),
        scriptSource: scriptSource ? scriptSource(code) : cellSource(code),
        run: read.recorded,
        ...(toolError ? { toolError } : {}),
      });
    });
    flush();
  }

  // The figures of the answers that no output shows (lib/trace), as the chat marks them.
  const untraced = untracedMarkdown(traceConversation(input.messages).values());
  if (untraced) body.push({ kind: 'markdown', id: ids.next('runpad-untraced-figures'), markdown: untraced });

  const used = TARGET_LIST.filter((target) => target.notebook.setup && body.some((cell) => cell.kind === 'code' && cell.target === target.id));
  const setups = used.flatMap((target) => (target.notebook.setup ? [{ target: target.id, setup: target.notebook.setup }] : []));
  const intro = introMarkdown(
    input.title,
    files,
    setups.map((s) => s.setup),
  );
  return [
    ...(intro ? [{ kind: 'markdown' as const, id: introId, markdown: intro }] : []),
    ...setups.map(({ target, setup }) => ({ kind: 'setup' as const, id: setupIds.get(target) as string, name: setup.name, source: setup.source })),
    ...body,
  ];
}

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

type ResolveImage = (sha256: string) => Promise<string | null>;

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


async function notebookOutputs(run: StoredRun, executionCount: number | null, resolve: ResolveImage): Promise<NotebookOutput[]> {
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

// ---------------------------------------------------------------------------------------------
// The notebook

export async function toNotebook(input: {
  title: string | null;
  messages: StoredMessage[];
  /** Base64 of a stored blob, or null when it cannot be had (the image is then left out). */
  resolveImage: (sha256: string) => Promise<string | null>;
}): Promise<Notebook> {
  // One lookup per blob, however often the conversation shows it.
  const cache = new Map<string, Promise<string | null>>();
  const resolve: ResolveImage = (sha256) => {
    let pending = cache.get(sha256);
    if (!pending) {
      pending = input.resolveImage(sha256);
      cache.set(sha256, pending);
    }
    return pending;
  };

  let executionCount = 0;
  const cells = await Promise.all(
    conversationCells(input).map(async (cell): Promise<NotebookCell> => {
      if (cell.kind === 'markdown') return { cell_type: 'markdown', id: cell.id, metadata: {}, source: toLines(cell.markdown) };
      if (cell.kind === 'setup') {
        return {
          cell_type: 'code',
          id: cell.id,
          metadata: { jupyter: { source_hidden: true }, tags: [`runpad-${cell.name}`], runpad: { role: cell.name } },
          source: toLines(cell.source),
          execution_count: null,
          outputs: [],
        };
      }
      // Numbered synchronously, in cell order, before any await.
      const count = cell.run ? (executionCount += 1) : null;
      const runpad: Record<string, unknown> = { language: cell.language };
      if (cell.run) {
        runpad.status = cell.run.status;
        runpad.durationMs = cell.run.durationMs;
        if (cell.run.userRun) runpad.userRun = cell.run.userRun;
        if (cell.run.restarted) runpad.restarted = true;
      }
      const outputs = cell.run ? await notebookOutputs(cell.run, count, resolve) : [];
      if (cell.toolError) outputs.push({ output_type: 'stream', name: 'stderr', text: toLines(`${cell.toolError}\n`) });
      return { cell_type: 'code', id: cell.id, metadata: { runpad }, source: toLines(cell.source), execution_count: count, outputs };
    }),
  );

  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' },
      language_info: {
        name: 'python',
        mimetype: 'text/x-python',
        file_extension: '.py',
        pygments_lexer: 'ipython3',
        codemirror_mode: { name: 'ipython', version: 3 },
        nbconvert_exporter: 'python',
      },
      runpad: { title: input.title },
    },
    cells,
  };
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A download name from the title: ASCII letters, digits, `-` and `_` only (accents dropped, the
 * rest become `-`), at most 80 characters with the extension; `runpad-conversation` when the
 * title leaves nothing.
 */
export function exportFileName(title: string | null, extension: string): string {
  const base = (title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 80 - extension.length)
    .replace(/[-_]+$/, '');
  return `${base && !WINDOWS_RESERVED.test(base) ? base : 'runpad-conversation'}${extension}`;
}

export function notebookFileName(title: string | null): string {
  return exportFileName(title, '.ipynb');
}
