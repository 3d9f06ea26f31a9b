/**
 * What the model sees of a run: compact text (status, stdout/stderr head and tail, values,
 * tables as text, the end of the traceback, files written) plus up to a few images. The UI
 * keeps the full outputs; this is only the model's view.
 */
import 'server-only';
import { foldCarriageReturns } from '@/lib/runtime/stream-text';
import { BLOB_REF_PATTERN, type MimeBundle, type Output, type RunResult, type TableData } from '@/lib/runtime/protocol';
import { MODEL_VIEW_CAPS } from '@/lib/runtime/limits';
import { formatBytes, formatDuration } from '@/lib/format';
import { describeChart, vegaLiteSpecOf } from '@/lib/charts/vegalite';
import { noticeForModel } from '@/lib/runtime/run-failure';
import { runToSchemaView, type KnownWords } from './model-sees.server';
import type { ModelSees } from '@/lib/messages/model-input-schema';

export type ModelImage = { mediaType: string; data: string };
export type ModelView = { text: string; images: ModelImage[] };
export type ResolveBlob = (sha256: string) => Promise<{ mediaType: string; base64: string } | null>;

export function headTail(text: string, head: number = MODEL_VIEW_CAPS.streamHeadChars, tail: number = MODEL_VIEW_CAPS.streamTailChars): string {
  if (text.length <= head + tail) return text;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted.toLocaleString('en-US')} characters omitted …]\n${text.slice(-tail)}`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\t\n|]/g, ' ').slice(0, 80);
}

export function tableToText(table: TableData, maxRows = MODEL_VIEW_CAPS.tableRows): string {
  const [rows, columns] = table.shape ?? [table.data.length, table.schema.fields.length];
  const fields = table.schema.fields;
  const lines = [
    `table: ${rows.toLocaleString('en-US')} rows × ${columns.toLocaleString('en-US')} columns`,
    `columns: ${fields.map((f) => `${f.name} (${f.type})`).join(', ')}`,
    fields.map((f) => f.name).join(' | '),
    ...table.data.slice(0, maxRows).map((row) => fields.map((f) => cell(row[f.name])).join(' | ')),
  ];
  if (rows > Math.min(maxRows, table.data.length)) lines.push(`[first ${Math.min(maxRows, table.data.length)} of ${rows.toLocaleString('en-US')} rows shown]`);
  return lines.join('\n');
}

function imageOf(data: MimeBundle): { mediaType: string; value: string } | null {
  if (data['image/png']) return { mediaType: 'image/png', value: data['image/png'] };
  if (data['image/jpeg']) return { mediaType: 'image/jpeg', value: data['image/jpeg'] };
  return null;
}

function tracebackTail(traceback: string[]): string {
  // Frames are "  File ..." lines followed by their source; keep the last few frames.
  const starts = traceback.flatMap((line, i) => (line.startsWith('  File ') ? [i] : []));
  if (starts.length <= MODEL_VIEW_CAPS.tracebackFrames) return traceback.join('\n');
  const from = starts[starts.length - MODEL_VIEW_CAPS.tracebackFrames];
  return ['Traceback (most recent call last, earlier frames omitted):', ...traceback.slice(from)].join('\n');
}

/** Adjacent stream outputs of one name are joined before head/tail cutting. */
function streamBlocks(outputs: Output[]): Array<Output | { output_type: 'joined'; name: string; text: string }> {
  const blocks: Array<Output | { output_type: 'joined'; name: string; text: string }> = [];
  for (const output of outputs) {
    const last = blocks.at(-1);
    if (output.output_type === 'stream') {
      if (last?.output_type === 'joined' && last.name === output.name) last.text += output.text;
      else blocks.push({ output_type: 'joined', name: output.name, text: output.text });
    } else blocks.push(output);
  }
  return blocks;
}

/**
 * `known`: the words the model already knows in this conversation (lib/ai/model-sees.server.ts,
 * knownWords); under `schema` every other word of an output is a placeholder, so none known: all are.
 */
export async function runToModel(result: RunResult, options: { includeImages: boolean; resolveBlob?: ResolveBlob; modelSees?: ModelSees; known?: KnownWords }): Promise<ModelView> {
  // Under `schema` the model gets shapes and the words it knows only (lib/ai/model-sees.server.ts).
  if (options.modelSees === 'schema') return runToSchemaView(result, options.known ?? new Set());
  const lines: string[] = [];
  if (result.restored) {
    const failed = result.restored.failed.length > 0 ? `; ${result.restored.failed.length} failed: ${result.restored.failed.join('; ')}` : '';
    lines.push(`The interpreter was restored by re-running ${result.restored.runs} earlier runs${failed}.`);
  } else if (result.freshInterpreter && result.freshInterpreter.missingRuns > 0) {
    lines.push(
      `This ran in a new interpreter without the state of the ${result.freshInterpreter.missingRuns} earlier run(s): files in /data are back; variables, imports and /tmp are gone.`,
    );
  }
  if (result.userRun === 'edited') lines.push('The user edited this code and ran their version; the code above is theirs and this is its result.');
  if (result.userRun === 'rerun') lines.push('The user ran this code again; this is the result of that run.');
  lines.push(`status: ${result.status} (${formatDuration(result.durationMs)})`);
  const notice = noticeForModel(result);
  if (notice) lines.push(`notice: ${notice}`);
  const images: ModelImage[] = [];
  let imageCount = 0;
  for (const block of streamBlocks(result.outputs)) {
    switch (block.output_type) {
      case 'joined':
        // A progress line updated in place reaches the model at its last state (stored text may predate the page's folding).
        lines.push(`${block.name}:\n${headTail(foldCarriageReturns(block.text))}`);
        break;
      case 'display_data':
      case 'execute_result': {
        const label = block.output_type === 'execute_result' ? 'result' : 'display';
        const table = block.data['application/vnd.dataresource+json'];
        const image = imageOf(block.data);
        // A Vega-Lite chart: the page adds a PNG of it (lib/charts/chart-images.client.ts), which goes
        // the images' way; the chart is also described in words, all of it when there is no PNG.
        const chart = vegaLiteSpecOf(block.data);
        if (table) lines.push(`${label}:\n${tableToText(table)}`);
        else if (image) {
          imageCount += 1;
          const attached = options.includeImages && images.length < MODEL_VIEW_CAPS.imagesPerRun ? await loadImage(image, options.resolveBlob) : null;
          if (attached) images.push(attached);
          if (!options.includeImages) {
            // A model without image input (or images turned off) reads the figure in words instead.
            lines.push(describeFigure(imageCount, image, block.data, chart));
            break;
          }
          lines.push(
            (attached ? `[image ${imageCount}: shown to the user, attached]` : `[image ${imageCount}: shown to the user, not attached]`) +
              (chart ? ` (an interactive chart: ${describeChart(chart)})` : ''),
          );
        } else if (chart) lines.push(`${label} (a chart; no image of it was made):\n${describeChart(chart)}`);
        else if (block.data['text/markdown'] !== undefined) lines.push(`${label} (markdown):\n${headTail(block.data['text/markdown'])}`);
        else if (block.data['text/plain'] !== undefined) lines.push(`${label}:\n${headTail(block.data['text/plain'])}`);
        break;
      }
      case 'error':
        lines.push(`error: ${block.ename}: ${block.evalue}\n${tracebackTail(block.traceback)}`);
        break;
      case 'file':
        lines.push(`wrote /output/${block.name} (${formatBytes(block.size)})`);
        break;
      case 'stream':
        break;
    }
  }
  return { text: lines.join('\n'), images };
}

/** Width and height from a PNG's IHDR or a JPEG's SOF marker, when the bytes are at hand. */
export function imageSize(mediaType: string, base64: string): { width: number; height: number } | null {
  if (BLOB_REF_PATTERN.test(base64)) return null;
  const bytes = Buffer.from(base64.slice(0, 64 * 1024), 'base64');
  if (mediaType === 'image/png' && bytes.length >= 24 && bytes.toString('ascii', 1, 4) === 'PNG') return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (mediaType === 'image/jpeg') {
    for (let i = 2; i + 9 < bytes.length; ) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1];
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: bytes.readUInt16BE(i + 7), height: bytes.readUInt16BE(i + 5) };
      i += 2 + bytes.readUInt16BE(i + 2);
    }
  }
  return null;
}

/**
 * A figure in words: its type and size, and the data behind it when the output carries it (a
 * chart's spec, a matplotlib figure's title, axes and series, a diagram's DOT source).
 */
function describeFigure(index: number, image: { mediaType: string; value: string }, data: MimeBundle, chart: ReturnType<typeof vegaLiteSpecOf>): string {
  const size = imageSize(image.mediaType, image.value);
  const kind = image.mediaType.replace('image/', '').toUpperCase();
  const bytes = BLOB_REF_PATTERN.test(image.value) ? null : Math.floor((image.value.length * 3) / 4);
  const facts = [kind, size ? `${size.width}×${size.height} px` : null, bytes ? formatBytes(bytes) : null].filter(Boolean).join(', ');
  const lines = [`[image ${index} shown to the user (${facts}); images are not sent to this model, so here is what is known of it:]`];
  if (chart) {
    lines.push(`an interactive chart: ${describeChart(chart)}`);
    const values = (chart.data as { values?: unknown } | undefined)?.values;
    if (Array.isArray(values)) lines.push(`its data (${values.length.toLocaleString('en-US')} rows): ${headTail(JSON.stringify(values.slice(0, MODEL_VIEW_CAPS.tableRows)), 1_500, 500)}${values.length > MODEL_VIEW_CAPS.tableRows ? ' …' : ''}`);
  }
  const dot = data['text/vnd.graphviz'];
  if (dot) lines.push(`a Graphviz diagram drawn from this DOT source:\n${headTail(dot, 1_500, 500)}`);
  const text = data['text/plain'];
  if (text && !chart) lines.push(headTail(text, 1_500, 500));
  return lines.join('\n');
}

async function loadImage(image: { mediaType: string; value: string }, resolveBlob?: ResolveBlob): Promise<ModelImage | null> {
  if (!BLOB_REF_PATTERN.test(image.value)) return { mediaType: image.mediaType, data: image.value };
  const blob = await resolveBlob?.(image.value.slice('blob:'.length));
  return blob ? { mediaType: blob.mediaType, data: blob.base64 } : null;
}
