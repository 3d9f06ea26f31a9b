/**
 * What R's side of a run returns (lib/targets/r/capture.R), turned into the output protocol. Plain
 * code, shared by the R worker and its tests: `fromWebR` flattens webR's `toJs()` tree into plain
 * values, `rRunSchema` validates them, and `eventsToOutputs` maps events to outputs (streams,
 * warnings and errors with their call, tables, plots, files).
 */
import 'client-only';
import { z } from 'zod';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import type { Output, TableData } from '@/lib/runtime/protocol';

/** webR's `toJs()` form of an R value (WebRDataJs), as far as capture.R produces them. */
type RTree =
  | { type: 'null' }
  | { type: 'list'; names: (string | null)[] | null; values: RTree[] }
  | { type: 'character' | 'double' | 'integer' | 'logical'; names: (string | null)[] | null; values: unknown[] };

/** R values as plain ones: a named list → an object, an unnamed list → an array, a vector → an array, NULL → null. */
export function fromWebR(tree: unknown): unknown {
  if (!tree || typeof tree !== 'object') return null;
  const node = tree as RTree;
  if (node.type === 'null') return null;
  if (node.type === 'list') {
    const values = Array.isArray(node.values) ? node.values.map(fromWebR) : [];
    if (!node.names) return values;
    const object: Record<string, unknown> = {};
    node.names.forEach((name, i) => {
      if (name) object[name] = values[i];
    });
    return object;
  }
  return Array.isArray(node.values) ? node.values : [];
}

const rString = z.array(z.string().nullable());
/** An R scalar string (a length-one character vector; NA → null). */
const scalar = rString.length(1).transform((v) => v[0]);
const optionalScalar = rString.max(1).transform((v) => v[0] ?? null);

/** Any JS number, Inf and NaN included (R has them; zod's number() refuses them). */
const anyNumber = z.custom<number>((value) => typeof value === 'number');
const cellValues = z.array(z.union([z.string(), anyNumber, z.boolean(), z.null()]));

/** Validates one event (each field is a vector on the R side) into a plain one. */
const one = <T extends z.ZodType>(schema: T) => z.tuple([schema]).transform((v) => v[0] as z.infer<T>);
const eventSchema = z.union([
  z.object({ type: one(z.literal('stream')), name: one(z.enum(['stdout', 'stderr'])), text: scalar }),
  z.object({ type: one(z.literal('warning')), message: scalar, call: optionalScalar }),
  z.object({ type: one(z.literal('error')), ename: scalar, evalue: scalar, call: optionalScalar, frames: rString.max(50) }),
  z.object({
    type: one(z.literal('table')),
    names: z.array(z.string()),
    columns: z.array(z.object({ type: scalar, values: cellValues })),
    index: one(z.boolean()),
    shape: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
    text: scalar,
  }),
  z.object({ type: one(z.literal('image')), path: scalar }),
  /** Where a plot page began: its PNG (an `image` event at the end, once written) belongs here. */
  z.object({ type: one(z.literal('plot')), path: scalar }),
  z.object({ type: one(z.literal('file')), name: scalar, size: one(z.number().nonnegative()) }),
]);
export type REvent = z.infer<typeof eventSchema>;

export const rRunSchema = z.object({
  status: z.tuple([z.enum(['ok', 'error', 'interrupted'])]).transform((v) => v[0]),
  events: z.array(z.unknown()).max(OUTPUT_CAPS.outputsPerRun * 4),
});

/** The events that validate, in order, and how many did not. */
export function parseEvents(events: readonly unknown[]): { events: REvent[]; dropped: number } {
  const parsed: REvent[] = [];
  let dropped = 0;
  for (const event of events) {
    const result = eventSchema.safeParse(event);
    if (result.success) parsed.push(result.data);
    else dropped += 1;
  }
  return { events: parsed, dropped };
}

/** How R prints a condition: `Error in f(x) : message` or, without a call, `Error: message`. */
export function conditionLine(kind: 'Error' | 'Warning', message: string, call: string | null): string {
  if (kind === 'Warning') return call ? `Warning message:\nIn ${call} : ${message}` : `Warning message:\n${message}`;
  return call ? `Error in ${call} : ${message}` : `Error: ${message}`;
}

/** A table event as the protocol's table (the same shape pandas' tables have). */
export function tableData(event: Extract<REvent, { type: 'table' }>): TableData {
  const names = event.names.slice(0, event.columns.length);
  const rows = Math.min(OUTPUT_CAPS.tableRows, ...event.columns.map((column) => column.values.length));
  const data: TableData['data'] = [];
  for (let row = 0; row < rows; row += 1) {
    const record: TableData['data'][number] = {};
    names.forEach((name, column) => {
      record[name] = cell(event.columns[column].values[row]);
    });
    data.push(record);
  }
  return {
    schema: {
      fields: names.map((name, column) => ({ name, type: event.columns[column].type ?? 'string' })),
      ...(event.index && names.length > 0 ? { primaryKey: [names[0]] } : {}),
    },
    data,
    shape: event.shape,
  };
}

/** JSON has no Inf or NaN: R prints them, so the table shows what R would. */
function cell(value: string | number | boolean | null | undefined): string | number | boolean | null {
  if (value === undefined) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Inf' : '-Inf';
  if (typeof value === 'string' && value.length > OUTPUT_CAPS.textChars) return value.slice(0, OUTPUT_CAPS.textChars);
  return value;
}

/** Reads a plot's PNG from R's filesystem as base64, or null when it cannot. */
export type ReadImage = (path: string) => string | null;
/** A file under /output/ as a download: its media type from its name. */
export type MediaTypeOf = (name: string) => string;

/**
 * Plots in R's order. A PNG is written when its page is done, so capture.R lists the written ones
 * (`image` events) at the end, and marks where each page began (`plot` events, naming the file it
 * will be). Each PNG moves to its page's mark; a PNG without a mark (a page begun where no hook
 * sees it) stays at the end; a mark without a PNG (a page that was never written) goes.
 */
export function placePlots(events: readonly REvent[]): REvent[] {
  const written = new Set(events.flatMap((event) => (event.type === 'image' && event.path ? [event.path] : [])));
  const placed = new Set<string>();
  const ordered: REvent[] = [];
  for (const event of events) {
    if (event.type === 'plot') {
      if (event.path && written.has(event.path) && !placed.has(event.path)) {
        placed.add(event.path);
        ordered.push({ type: 'image', path: event.path });
      }
    } else if (!(event.type === 'image' && event.path && placed.has(event.path))) {
      ordered.push(event);
    }
  }
  return ordered;
}

/** The outputs of a run, in R's order (plots where their page began); consecutive text on one stream is one output. */
export function eventsToOutputs(events: readonly REvent[], readImage: ReadImage, mediaTypeOf: MediaTypeOf): Output[] {
  const outputs: Output[] = [];
  const text = (name: 'stdout' | 'stderr', value: string) => {
    if (!value) return;
    const last = outputs.at(-1);
    if (last?.output_type === 'stream' && last.name === name) last.text += value;
    else outputs.push({ output_type: 'stream', name, text: value });
  };
  for (const event of placePlots(events)) {
    switch (event.type) {
      case 'stream':
        text(event.name, event.text ?? '');
        break;
      case 'warning': {
        const message = event.message ?? '';
        outputs.push({ output_type: 'error', ename: 'Warning', evalue: message, traceback: [conditionLine('Warning', message, event.call)] });
        break;
      }
      case 'error': {
        const message = event.evalue ?? '';
        const frames = event.frames.filter((frame): frame is string => Boolean(frame)).map((frame, i) => `${i + 1}: ${frame}`);
        outputs.push({
          output_type: 'error',
          ename: event.ename ?? 'Error',
          evalue: message,
          traceback: [conditionLine('Error', message, event.call), ...(frames.length > 1 ? ['Traceback (innermost last):', ...frames] : [])],
        });
        break;
      }
      case 'table':
        outputs.push({ output_type: 'execute_result', data: { 'application/vnd.dataresource+json': tableData(event), 'text/plain': event.text ?? '' } });
        break;
      case 'image': {
        const png = event.path ? readImage(event.path) : null;
        if (png) outputs.push({ output_type: 'display_data', data: { 'image/png': png, 'text/plain': '<R plot>' } });
        else text('stderr', 'A plot could not be read back from R.\n');
        break;
      }
      case 'plot':
        break; // placePlots made each mark its PNG, or dropped it
      case 'file':
        if (event.name) outputs.push({ output_type: 'file', name: event.name, size: event.size, mediaType: mediaTypeOf(event.name) });
        break;
    }
  }
  return outputs;
}
