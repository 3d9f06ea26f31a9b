/**
 * What the model may see of the person's data: `outputs` (everything the code printed or showed,
 * and each dropped file's first rows) or `schema` (shapes, names and types only). The operator sets
 * the default (RUNPAD_MODEL_SEES), a conversation may only be stricter, and the server applies the
 * strictest when it builds the request to the model provider (lib/ai/model-messages.server.ts). Pure.
 *
 * Under `schema` the model gets, per output: a stream's line and byte counts; a table's shape,
 * column names and types; that a figure, chart or diagram was made (its kind, a chart's marks and
 * its channels' field names and types); the MIME types of other results; files written (name,
 * size); errors as their type and message with data values removed (redactMessage). Never a row, a
 * cell, printed text, an image, chart data, a diagram's source or a file preview.
 */
import 'server-only';
import { noticeForModel } from '@/lib/runtime/run-failure';
import { BLOB_REF_PATTERN, type MimeBundle, type RunResult } from '@/lib/runtime/protocol';
import { MODEL_VIEW_CAPS } from '@/lib/runtime/limits';
import { formatBytes, formatDuration } from '@/lib/format';
import { describeChartShape, vegaLiteSpecOf } from '@/lib/charts/vegalite';
import type { Attachment } from '@/lib/files/attachment';

/** Longest error message kept after redaction; the rest is cut with an ellipsis. */
const MESSAGE_CHARS = 300;

/**
 * An error message with its data values removed: every quoted string ('…', "…", `…`, also across
 * escaped quotes) becomes <string>, every number (integers, decimals, exponents, with a sign) and
 * every hexadecimal literal becomes <number>, and whitespace runs are one space. Words outside
 * quotes are kept: the messages of Python, R, DuckDB and Graphviz quote the values they name.
 */
export function redactMessage(message: string): string {
  const redacted = message
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`\n]*`/g, '<string>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<number>')
    .replace(/(?<![\w<])[-+]?(?:\d[\d_,]*\.?\d*|\.\d+)(?:e[-+]?\d+)?(?![\w>])/gi, '<number>')
    .replace(/\s+/g, ' ')
    .trim();
  return redacted.length > MESSAGE_CHARS ? `${redacted.slice(0, MESSAGE_CHARS)}…` : redacted;
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

/** One display_data / execute_result under `schema`: by MIME type, shapes and kinds only. */
function displayShape(label: string, data: MimeBundle): string {
  const table = data['application/vnd.dataresource+json'];
  if (table) {
    const [rows, columns] = table.shape ?? [table.data.length, table.schema.fields.length];
    return `${label}: a table of ${rows.toLocaleString('en-US')} rows × ${columns.toLocaleString('en-US')} columns; columns: ${table.schema.fields.map((f) => `${f.name} (${f.type})`).join(', ')}`;
  }
  const chart = vegaLiteSpecOf(data);
  const png = data['image/png'] ?? data['image/jpeg'];
  const pngType = data['image/png'] ? 'image/png' : 'image/jpeg';
  if (chart) return `${label}: a chart shown to the user (${describeChartShape(chart)})${png ? `, drawn as ${imageFacts(pngType, png)}` : ''}; its data and image are not sent`;
  if (data['text/vnd.graphviz'] !== undefined || data['image/svg+xml'] !== undefined) {
    const svg = data['image/svg+xml'];
    const facts = [data['text/vnd.graphviz'] !== undefined ? 'Graphviz' : null, svg !== undefined ? `SVG, ${formatBytes(Buffer.byteLength(svg, 'utf8'))}` : null].filter(Boolean).join('; ');
    return `${label}: a diagram shown to the user (${facts}); its source and image are not sent`;
  }
  if (png) return `${label}: a figure shown to the user (${imageFacts(pngType, png)}); its image is not sent`;
  if (data['text/markdown'] !== undefined) return `${label}: markdown shown to the user (${measure(data['text/markdown'])}); its text is not sent`;
  if (data['text/plain'] !== undefined) return `${label}: text shown to the user (${measure(data['text/plain'])}); its text is not sent`;
  return `${label}: ${Object.keys(data).join(', ') || 'nothing'} shown to the user`;
}

/** "File" lines of a Python traceback (where, not what); source lines and values are left out. */
function tracebackPlaces(traceback: string[]): string[] {
  const places = traceback.flatMap((entry) => entry.split('\n')).filter((line) => /^\s*File "[^"\n]*", line \d+/.test(line));
  return places.slice(-MODEL_VIEW_CAPS.tracebackFrames).map((line) => line.trim());
}

/** A run under `schema`: what the model may know of it (see the module comment). Never images. */
export function runToSchemaView(result: RunResult): { text: string; images: [] } {
  const lines = ['[This conversation sends the model only the shape of outputs: no printed text, values, rows or images.]'];
  if (result.restored) {
    lines.push(`The interpreter was restored by re-running ${result.restored.runs} earlier runs${result.restored.failed.length > 0 ? `; ${result.restored.failed.length} failed` : ''}.`);
  } else if (result.freshInterpreter && result.freshInterpreter.missingRuns > 0) {
    lines.push(`This ran in a new interpreter without the state of the ${result.freshInterpreter.missingRuns} earlier run(s): files in /data are back; variables, imports and /tmp are gone.`);
  }
  if (result.userRun === 'edited') lines.push('The user edited this code and ran their version; the code above is theirs and this is its result.');
  if (result.userRun === 'rerun') lines.push('The user ran this code again; this is the result of that run.');
  lines.push(`status: ${result.status} (${formatDuration(result.durationMs)})`);
  // How it failed (the run-failure words for the model, and any older free-text notice), redacted.
  const notice = noticeForModel(result);
  if (notice) lines.push(`notice: ${redactMessage(notice)}`);
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
        lines.push(displayShape(output.output_type === 'execute_result' ? 'result' : 'display', output.data));
        break;
      case 'error': {
        const places = tracebackPlaces(output.traceback);
        lines.push(`error: ${redactMessage(output.ename)}: ${redactMessage(output.evalue)}${places.length > 0 ? `\n${places.join('\n')}` : ''}`);
        break;
      }
      case 'file':
        lines.push(`wrote /output/${output.name} (${formatBytes(output.size)})`);
        break;
    }
  }
  flush();
  return { text: lines.join('\n'), images: [] };
}

/**
 * A dropped file under `schema`: its path, size, type and the first line of the browser's
 * description (format, row count, column names and types), never its rows or notes.
 */
export function attachmentsToSchemaText(files: Attachment[]): string {
  const lines = ['[Files attached to this message, available to Python under /data/ (only their columns are described: rows are not sent):]'];
  for (const file of files) {
    const first = file.preview?.split('\n', 1)[0]?.slice(0, 3_500);
    lines.push(first && first.startsWith('/') ? first : `/data/${file.name} (${file.size.toLocaleString('en-US')} bytes, ${file.mediaType})`);
  }
  return lines.join('\n');
}
