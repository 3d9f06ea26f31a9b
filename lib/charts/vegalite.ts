/**
 * Pure helpers for Vega-Lite outputs (`application/vnd.vegalite.v5+json` / `v6+json`): finding
 * the spec in a bundle, making it safe to hand to vega-embed, finding data it would fetch, and
 * describing it in words for the model when no image of it exists.
 */
import { VEGALITE_MIME_TYPES, type MimeBundle } from '@/lib/runtime/protocol';

export type ChartSpec = Record<string, unknown>;

/** The Vega-Lite spec of a bundle (the newest version when it has several), else null. */
export function vegaLiteSpecOf(data: MimeBundle): ChartSpec | null {
  for (const type of [...VEGALITE_MIME_TYPES].reverse()) {
    const spec = data[type];
    if (spec) return spec;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The spec without `usermeta.embedOptions`: vega-embed merges those over the page's own options,
 * so a spec could otherwise turn the export/editor actions back on, bind inputs into any element
 * of the page, or set `ast: false`. Everything else is left as it is.
 */
export function safeSpec(spec: ChartSpec): ChartSpec {
  const usermeta = spec.usermeta;
  if (!isObject(usermeta) || !('embedOptions' in usermeta)) return spec;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped on purpose
  const { embedOptions, ...rest } = usermeta;
  return { ...spec, usermeta: rest };
}

/** Top-level keys of a composed view, which Vega-Lite cannot size to its container. */
const COMPOSED_KEYS = ['hconcat', 'vconcat', 'concat', 'facet', 'repeat'] as const;

/**
 * The spec drawn to the width of its card: a single view (or layers) whose width the spec leaves
 * open gets `width: "container"` (and `autosize: fit` unless it sets its own). Altair and most
 * hand-written specs leave it open, and were drawn at Vega-Lite's default of a few hundred pixels
 * inside a card more than twice as wide. A set width, and compositions (concat, facet, repeat, a
 * row/column/facet channel), which cannot take their container's width, are left as they are.
 */
export function fittedSpec(spec: ChartSpec): ChartSpec {
  if ('width' in spec || COMPOSED_KEYS.some((key) => key in spec)) return spec;
  const encoding = isObject(spec.encoding) ? spec.encoding : {};
  if ('row' in encoding || 'column' in encoding || 'facet' in encoding) return spec;
  return { ...spec, width: 'container', autosize: spec.autosize ?? { type: 'fit', contains: 'padding' } };
}

/** Keys whose values are data rows, never spec: a column named "url" is not a data source. */
const DATA_KEYS = new Set(['values', 'datasets']);

/**
 * URLs the spec would load: `data.url` anywhere (top level, layers, lookups), an image mark's
 * constant `url`, and in a full Vega spec `data[].url`. Charts here draw inline data only.
 */
export function findUrls(spec: unknown, limit = 10): string[] {
  const urls: string[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number) => {
    if (urls.length >= limit || depth > 64 || typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'url') {
        if (typeof value === 'string') urls.push(value);
        else if (isObject(value) && typeof value.value === 'string') urls.push(value.value);
        else if (isObject(value) && 'signal' in value) urls.push(`(a URL computed by the expression ${JSON.stringify(value.signal).slice(0, 80)})`);
      } else if (!DATA_KEYS.has(key)) {
        visit(value, depth + 1);
      }
    }
  };
  visit(spec, 0);
  return [...new Set(urls)];
}

/** The sentence shown, and given to the model, for a spec that asks for data from a URL. */
export function urlRefusal(urls: readonly string[]): string {
  const shown = [...new Set(urls)].slice(0, 3).join(', ');
  return `This chart was not drawn: it asks to load a URL (${shown}), and charts here draw only data inside the spec, with no network. Put the rows in the spec instead ("data": {"values": [...]}).`;
}

type Encoding = Record<string, unknown>;

function markOf(spec: Record<string, unknown>): string | null {
  const mark = spec.mark;
  if (typeof mark === 'string') return mark;
  if (isObject(mark) && typeof mark.type === 'string') return mark.type;
  return null;
}

/** The unit specs of a (possibly composed) spec: layers, concatenations, facets and repeats. */
function unitSpecs(spec: Record<string, unknown>, depth = 0): Array<Record<string, unknown>> {
  if (depth > 8) return [];
  const parts: Array<Record<string, unknown>> = [];
  if (markOf(spec)) parts.push(spec);
  for (const key of ['layer', 'hconcat', 'vconcat', 'concat']) {
    const children = spec[key];
    if (Array.isArray(children)) for (const child of children) if (isObject(child)) parts.push(...unitSpecs(child, depth + 1));
  }
  if (isObject(spec.spec)) parts.push(...unitSpecs(spec.spec, depth + 1));
  return parts;
}

function channelText(channel: string, definition: unknown): string | null {
  if (Array.isArray(definition)) {
    const fields = definition.map((item) => (isObject(item) && typeof item.field === 'string' ? item.field : null)).filter(Boolean);
    return fields.length > 0 ? `${channel} = ${fields.join(', ')}` : null;
  }
  if (!isObject(definition)) return null;
  const field = typeof definition.field === 'string' ? definition.field : isObject(definition.field) ? JSON.stringify(definition.field) : null;
  const aggregate = typeof definition.aggregate === 'string' ? definition.aggregate : null;
  const timeUnit = typeof definition.timeUnit === 'string' ? definition.timeUnit : null;
  const type = typeof definition.type === 'string' ? ` (${definition.type})` : '';
  if (aggregate === 'count' && !field) return `${channel} = count()${type}`;
  if (!field) return 'value' in definition ? `${channel} = constant ${JSON.stringify(definition.value).slice(0, 40)}` : null;
  const wrapped = aggregate ? `${aggregate}(${field})` : timeUnit ? `${timeUnit}(${field})` : field;
  return `${channel} = ${wrapped}${type}`;
}

/** Rows of inline data, by source: `data.values` and named `datasets` (as Altair writes them). */
function dataRows(spec: Record<string, unknown>): number | null {
  const datasets = isObject(spec.datasets) ? spec.datasets : {};
  const counted = new Map<unknown, number>();
  const visit = (node: unknown, depth: number) => {
    if (depth > 12 || !isObject(node)) return;
    const data = node.data;
    if (isObject(data)) {
      if (Array.isArray(data.values)) counted.set(data.values, data.values.length);
      else if (typeof data.name === 'string' && Array.isArray(datasets[data.name])) counted.set(data.name, (datasets[data.name] as unknown[]).length);
    }
    for (const key of ['layer', 'hconcat', 'vconcat', 'concat']) {
      const children = node[key];
      if (Array.isArray(children)) for (const child of children) visit(child, depth + 1);
    }
    visit(node.spec, depth + 1);
  };
  visit(spec, 0);
  if (counted.size === 0) {
    const named = Object.values(datasets).filter(Array.isArray);
    if (named.length === 0) return null;
    return named.reduce((sum, rows) => sum + rows.length, 0);
  }
  return [...counted.values()].reduce((sum, rows) => sum + rows, 0);
}

function titleOf(spec: Record<string, unknown>): string | null {
  const title = spec.title;
  if (typeof title === 'string') return title;
  if (isObject(title) && typeof title.text === 'string') return title.text;
  if (Array.isArray(title)) return title.filter((line) => typeof line === 'string').join(' ');
  return null;
}

/** The chart in words (for the model when it gets no image): title, marks, encodings, data rows. */
export function describeChart(spec: ChartSpec): string {
  const units = unitSpecs(spec);
  const marks = [...new Set(units.map(markOf).filter((mark): mark is string => mark !== null))];
  const composition = ['layer', 'hconcat', 'vconcat', 'concat', 'facet', 'repeat'].filter((key) => Array.isArray(spec[key]) || isObject(spec[key]));
  const title = titleOf(spec);
  const parts: string[] = [];
  const kind = marks.length > 0 ? `${marks.join(' + ')} chart` : 'chart';
  parts.push(`Vega-Lite ${kind}${composition.length > 0 ? ` (${composition.join(', ')})` : ''}${title ? ` titled ${JSON.stringify(title.slice(0, 120))}` : ''}`);
  const encodings = new Set<string>();
  // A composed spec's own encoding is shared by its layers.
  for (const unit of [spec, ...units]) {
    const encoding = (isObject(unit.encoding) ? unit.encoding : {}) as Encoding;
    for (const [channel, definition] of Object.entries(encoding)) {
      const text = channelText(channel, definition);
      if (text) encodings.add(text);
    }
  }
  if (encodings.size > 0) parts.push(`encodings: ${[...encodings].slice(0, 16).join(', ')}`);
  const rows = dataRows(spec);
  if (rows !== null) parts.push(`${rows.toLocaleString('en-US')} data row${rows === 1 ? '' : 's'} inline`);
  const urls = findUrls(spec);
  if (urls.length > 0) parts.push(`asks for data from ${urls.slice(0, 3).join(', ')} (not loaded: charts here use inline data only, so it was not drawn)`);
  const params = [spec, ...units].some((unit) => Array.isArray(unit.params) && unit.params.length > 0);
  if (params) parts.push('has params/selections (interactive)');
  return parts.join('; ');
}

/**
 * The chart's shape only, for a model that may not see data (RUNPAD_MODEL_SEES=schema): its marks,
 * each channel's field name and type, and how many rows it draws. No title, no constant, no value.
 * `word` says each name the spec gives (marks, channels, fields, aggregates, types) the way the
 * caller allows (lib/ai/model-sees.server.ts keeps only names the model already knows).
 */
export function describeChartShape(spec: ChartSpec, word: (text: string) => string = (text) => text): string {
  const units = unitSpecs(spec);
  const marks = [...new Set(units.map(markOf).filter((mark): mark is string => mark !== null).map(word))];
  const channels = new Set<string>();
  for (const unit of [spec, ...units]) {
    const encoding = (isObject(unit.encoding) ? unit.encoding : {}) as Encoding;
    for (const [channel, definition] of Object.entries(encoding)) {
      const fields = (Array.isArray(definition) ? definition : [definition]).filter(isObject);
      for (const item of fields) {
        const field = typeof item.field === 'string' ? word(item.field) : null;
        const aggregate = typeof item.aggregate === 'string' ? item.aggregate : null;
        const type = typeof item.type === 'string' ? ` (${word(item.type)})` : '';
        if (field) channels.add(`${word(channel)} = ${aggregate ? `${word(aggregate)}(${field})` : field}${type}`);
        else if (aggregate === 'count') channels.add(`${word(channel)} = count()${type}`);
      }
    }
  }
  const parts = [`Vega-Lite ${marks.length > 0 ? `${marks.join(' + ')} chart` : 'chart'}`];
  if (channels.size > 0) parts.push(`axes and channels: ${[...channels].slice(0, 16).join(', ')}`);
  const rows = dataRows(spec);
  if (rows !== null) parts.push(`${rows.toLocaleString('en-US')} data row${rows === 1 ? '' : 's'}`);
  return parts.join('; ');
}
