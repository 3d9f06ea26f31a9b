/**
 * Compares a run replayed in a visitor's browser (share page, "Re-run in my browser") with the
 * run recorded in the snapshot. Each output is compared by what the page shows of it: text as
 * text (`compareStdout`, the same rule restore uses), errors by name and message, tables by their
 * data, Graphviz SVG by its text, Vega-Lite by its spec, figures as images — decoded pixels, with
 * the tolerances below, since PNG bytes differ with encoder settings and embedded metadata even
 * when the picture does not. Pure apart from the injected image loader.
 */
import 'client-only';
import { compareStdout } from '@/lib/targets/restore-plan.client';
import type { MimeBundle, Output, RunResult, TableData } from '@/lib/runtime/protocol';
import { vegaLiteSpecOf, type ChartSpec } from '@/lib/charts/vegalite';

/**
 * When two figures count as the same picture: the same size, and at most `maxDifferingFraction`
 * of the pixels with any channel (RGBA, 0–255) further apart than `channelTolerance`. The
 * tolerance absorbs anti-aliasing and colour rounding; the fraction lets a stray edge pixel
 * pass but not a changed label or data point (0.1 % of a 640×480 figure is 307 pixels).
 */
export const IMAGE_MATCH = { channelTolerance: 16, maxDifferingFraction: 0.001 } as const;

/** Decoded RGBA pixels, row by row (as ImageData holds them). */
export type Pixels = { width: number; height: number; data: ArrayLike<number> };

/** A figure as a bundle holds it: base64 bytes, or `blob:<sha256>` once stored. */
export type ImageRef = { value: string; mediaType: 'image/png' | 'image/jpeg' };

/** Rejects with a FigureUnavailableError when the figure cannot be had. */
export type CompareDeps = { loadPixels: (image: ImageRef) => Promise<Pixels> };

/** Why a figure could not be compared: facts, worded once (figureWords). */
export type FigureUnavailable =
  | { kind: 'http'; status: number }
  | { kind: 'too-large'; width: number; height: number }
  | { kind: 'undecodable' }
  | { kind: 'no-canvas' };

/** What a pixel loader throws; its message is for logs, the words come from `figureWords`. */
export class FigureUnavailableError extends Error {
  constructor(readonly reason: FigureUnavailable) {
    super(`figure unavailable: ${reason.kind}`);
    this.name = 'FigureUnavailableError';
  }
}

function figureWords(reason: FigureUnavailable): string {
  switch (reason.kind) {
    case 'http':
      return `the recorded figure could not be loaded (HTTP ${reason.status})`;
    case 'too-large':
      return `the figure is too large to compare (${reason.width}×${reason.height})`;
    case 'undecodable':
      return 'not an image this browser can decode';
    case 'no-canvas':
      return 'this browser cannot draw figures off screen';
  }
}

export type Comparison = { same: true } | { same: false; differences: string[] };

/** At most this many differences are described per cell; the first one is the headline. */
const MAX_DIFFERENCES = 3;

/** What the page shows of one output (the same choice of MIME type as the output list makes). */
export type Comparable =
  | { kind: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | { kind: 'error'; ename: string; evalue: string }
  | { kind: 'chart'; spec: ChartSpec }
  | { kind: 'svg'; svg: string }
  | { kind: 'image'; image: ImageRef }
  | { kind: 'table'; table: TableData }
  | { kind: 'markdown'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'file'; name: string; mediaType: string; size: number };

const KIND_LABEL: Record<Comparable['kind'], string> = {
  stream: 'printed text',
  error: 'an error',
  chart: 'a chart',
  svg: 'a diagram',
  image: 'a figure',
  table: 'a table',
  markdown: 'formatted text',
  text: 'text',
  file: 'a file',
};

function bundleComparable(data: MimeBundle): Comparable {
  const spec = vegaLiteSpecOf(data);
  if (spec) return { kind: 'chart', spec };
  // DOT from Python: the recorded bundle also holds the SVG and PNG the page drew from it, a
  // re-run's only the source, so the source is what is compared.
  if (data['text/vnd.graphviz'] !== undefined) return { kind: 'svg', svg: data['text/vnd.graphviz'] };
  if (data['image/svg+xml']) return { kind: 'svg', svg: data['image/svg+xml'] };
  if (data['image/png']) return { kind: 'image', image: { value: data['image/png'], mediaType: 'image/png' } };
  if (data['image/jpeg']) return { kind: 'image', image: { value: data['image/jpeg'], mediaType: 'image/jpeg' } };
  if (data['application/vnd.dataresource+json']) return { kind: 'table', table: data['application/vnd.dataresource+json'] };
  if (data['text/markdown'] !== undefined) return { kind: 'markdown', text: data['text/markdown'] };
  return { kind: 'text', text: data['text/plain'] ?? '' };
}

/**
 * The outputs as the page shows them: adjacent streams of the same name joined (how a run's
 * printing was split into messages is not part of what it printed), each bundle reduced to the
 * representation on screen (a chart's PNG made for the model, say, is not compared).
 */
export function comparables(outputs: readonly Output[]): Comparable[] {
  const items: Comparable[] = [];
  for (const output of outputs) {
    const last = items.at(-1);
    switch (output.output_type) {
      case 'stream':
        if (last?.kind === 'stream' && last.name === output.name) last.text += output.text;
        else items.push({ kind: 'stream', name: output.name, text: output.text });
        break;
      case 'error':
        items.push({ kind: 'error', ename: output.ename, evalue: output.evalue });
        break;
      case 'display_data':
      case 'execute_result':
        items.push(bundleComparable(output.data));
        break;
      case 'file':
        items.push({ kind: 'file', name: output.name, mediaType: output.mediaType, size: output.size });
        break;
    }
  }
  return items;
}

/** JSON with object keys sorted, so that key order (not meaning) never makes two values differ. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

function compareTables(recorded: TableData, replayed: TableData): string | null {
  const columns = (table: TableData) => table.schema.fields.map((field) => `${field.name}:${field.type}`).join(', ');
  if (columns(recorded) !== columns(replayed)) return `columns were ${JSON.stringify(columns(recorded))}, now ${JSON.stringify(columns(replayed))}`;
  const rows = (table: TableData) => table.shape?.[0] ?? table.data.length;
  if (rows(recorded) !== rows(replayed)) return `${rows(recorded)} rows recorded, ${rows(replayed)} now`;
  for (let i = 0; i < Math.max(recorded.data.length, replayed.data.length); i++) {
    if (canonicalJson(recorded.data[i]) !== canonicalJson(replayed.data[i])) return `row ${i + 1} differs`;
  }
  return null;
}

/** Whether two decoded figures are the same picture (IMAGE_MATCH); null when they are. */
export function comparePixels(recorded: Pixels, replayed: Pixels, match: { channelTolerance: number; maxDifferingFraction: number } = IMAGE_MATCH): string | null {
  if (recorded.width !== replayed.width || recorded.height !== replayed.height) {
    return `${recorded.width}×${recorded.height} recorded, ${replayed.width}×${replayed.height} now`;
  }
  const pixels = recorded.width * recorded.height;
  if (recorded.data.length < pixels * 4 || replayed.data.length < pixels * 4) return 'the image data is incomplete';
  let differing = 0;
  for (let p = 0; p < pixels * 4; p += 4) {
    for (let c = 0; c < 4; c++) {
      if (Math.abs(recorded.data[p + c] - replayed.data[p + c]) > match.channelTolerance) {
        differing += 1;
        break;
      }
    }
  }
  if (pixels === 0 || differing / pixels <= match.maxDifferingFraction) return null;
  const percent = (differing / pixels) * 100;
  return `${percent.toFixed(percent < 1 ? 2 : 1)}% of pixels differ`;
}

async function compareImages(recorded: ImageRef, replayed: ImageRef, deps: CompareDeps): Promise<string | null> {
  let pixels: [Pixels, Pixels];
  try {
    pixels = await Promise.all([deps.loadPixels(recorded), deps.loadPixels(replayed)]);
  } catch (error) {
    if (error instanceof FigureUnavailableError) return `could not be compared (${figureWords(error.reason)})`;
    throw error;
  }
  return comparePixels(...pixels);
}

/** One pair of outputs of the same kind; null when the same, else what differs. */
async function compareItem(recorded: Comparable, replayed: Comparable, deps: CompareDeps): Promise<string | null> {
  if (recorded.kind !== replayed.kind) return `was ${KIND_LABEL[recorded.kind]}, now ${KIND_LABEL[replayed.kind]}`;
  switch (recorded.kind) {
    case 'stream': {
      const other = replayed as typeof recorded;
      if (recorded.name !== other.name) return `printed to ${recorded.name}, now to ${other.name}`;
      return compareStdout(recorded.text, other.text);
    }
    case 'text':
    case 'markdown':
      return compareStdout(recorded.text, (replayed as typeof recorded).text);
    case 'svg':
      return compareStdout(recorded.svg, (replayed as typeof recorded).svg);
    case 'error': {
      const other = replayed as typeof recorded;
      if (recorded.ename === other.ename && recorded.evalue === other.evalue) return null;
      return `${recorded.ename}: ${shorten(recorded.evalue)} recorded, ${other.ename}: ${shorten(other.evalue)} now`;
    }
    case 'chart':
      return canonicalJson(recorded.spec) === canonicalJson((replayed as typeof recorded).spec) ? null : 'the chart specification differs';
    case 'table':
      return compareTables(recorded.table, (replayed as typeof recorded).table);
    case 'image':
      return compareImages(recorded.image, (replayed as typeof recorded).image, deps);
    case 'file': {
      const other = replayed as typeof recorded;
      if (recorded.name !== other.name) return `was ${recorded.name}, now ${other.name}`;
      if (recorded.size !== other.size || recorded.mediaType !== other.mediaType) return `${recorded.size} bytes recorded, ${other.size} now`;
      return null;
    }
  }
}

function shorten(text: string, max = 80): string {
  const line = text.split('\n')[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const STATUS_LABEL: Record<RunResult['status'], string> = {
  ok: 'finished',
  error: 'ended with an error',
  timeout: 'timed out',
  interrupted: 'was interrupted',
  crashed: 'crashed',
  'page-closed': 'was cut off',
};

/**
 * Compares a replayed run with the recorded one: its status, then its outputs pair by pair, in
 * order. Describes at most three differences, the outputs numbered from 1 as shown.
 */
export async function compareOutputs(recorded: RunResult, replayed: RunResult, deps: CompareDeps): Promise<Comparison> {
  const differences: string[] = [];
  if (recorded.status !== replayed.status) differences.push(`it ${STATUS_LABEL[replayed.status]}; the recorded run ${STATUS_LABEL[recorded.status]}`);
  const before = comparables(recorded.outputs);
  const after = comparables(replayed.outputs);
  if (before.length !== after.length) differences.push(`${count(before.length)} recorded, ${count(after.length)} now`);
  for (let i = 0; i < Math.min(before.length, after.length) && differences.length < MAX_DIFFERENCES; i++) {
    const difference = await compareItem(before[i], after[i], deps);
    if (difference) differences.push(`output ${i + 1} (${KIND_LABEL[before[i].kind]}): ${difference}`);
  }
  return differences.length === 0 ? { same: true } : { same: false, differences: differences.slice(0, MAX_DIFFERENCES) };
}

function count(outputs: number): string {
  return `${outputs} output${outputs === 1 ? '' : 's'}`;
}
