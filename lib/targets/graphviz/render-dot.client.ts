/**
 * Renders Graphviz DOT to SVG with @viz-js/viz (Graphviz compiled to wasm; the wasm is embedded in
 * the JS, so it needs no network). Pure: runs the same in Node and in a worker. The SVG it returns
 * is Graphviz's raw output; callers must pass it through sanitizeSvg before showing or saving it.
 *
 * Failures come back as values: a run failure (lib/runtime/run-failure.ts), worded for the person
 * and for the model that wrote the DOT by that module, so that the next attempt can fix it.
 */
import 'client-only';
import { instance, type RenderError, type Viz } from '@viz-js/viz';
import type { Failed, RunFailure } from '@/lib/runtime/run-failure';
import { fitTexts, layoutTexts } from './fit-text.client';
import { GRAPHVIZ_LIMITS } from './protocol.client';

/** DOT that does not draw is a run's result (its words and line go to the cell and the model), not a failure of ours. */
export type RenderDotResult = { ok: true; svg: string; width: number; height: number } | Failed;

const ENGINE = 'Graphviz';

let vizPromise: Promise<Viz> | null = null;

function loadViz(): Promise<Viz> {
  // One instance for the life of the process: instantiating compiles ~1 MB of wasm.
  vizPromise ??= instance().catch((error: unknown) => {
    vizPromise = null; // let the next call try again rather than caching the failure
    throw error;
  });
  return vizPromise;
}

/** Instantiates Graphviz now (renderDot would do it on first use); rejects if it cannot start. */
export async function loadGraphviz(): Promise<void> {
  await loadViz();
}

export async function renderDot(dot: string): Promise<RenderDotResult> {
  if (dot.length > GRAPHVIZ_LIMITS.maxDotChars) {
    return failed({ kind: 'output-refused', engine: ENGINE, what: 'source', limitChars: GRAPHVIZ_LIMITS.maxDotChars, chars: dot.length });
  }
  if (dot.trim() === '') return syntaxError('The DOT source is empty. Write a graph, for example: digraph { a -> b }');

  let viz: Viz;
  try {
    viz = await loadViz();
  } catch (error) {
    return failed({ kind: 'engine-start', engine: ENGINE, detail: clip(describe(error), 2_000) });
  }

  let result: ReturnType<Viz['renderFormats']>;
  try {
    // One layout, two outputs: the picture, and the layout's label widths to draw them in.
    result = viz.renderFormats(dot, ['svg', 'json'], { engine: 'dot' });
  } catch (error) {
    // viz.render throws only when the wasm itself failed (an abort, out of memory); such an
    // instance is unusable, so the next render starts a fresh one.
    vizPromise = null;
    return failed({ kind: 'crashed', engine: ENGINE, cause: 'fault', stateLost: false, detail: clip(describe(error), 2_000) });
  }

  if (result.status === 'failure') return failureOf(dot, result.errors);
  // Refused before its labels are fitted (no work on an SVG that is not kept), and after (fitting adds to it).
  if (result.output.svg.length > GRAPHVIZ_LIMITS.maxSvgChars) return tooLarge();
  const svg = fitTexts(result.output.svg, layoutTexts(result.output.json));
  if (svg.length > GRAPHVIZ_LIMITS.maxSvgChars) return tooLarge();
  const size = svgSizeOf(svg);
  if (!size) return failed({ kind: 'crashed', engine: ENGINE, cause: 'fault', stateLost: false, detail: 'its SVG has no usable width and height' });
  return { ok: true, svg, ...size };
}

function tooLarge(): Failed {
  return failed({ kind: 'output-refused', engine: ENGINE, what: 'drawing', limitChars: GRAPHVIZ_LIMITS.maxSvgChars });
}

function failureOf(dot: string, errors: RenderError[]): RenderDotResult {
  const reported = errors.filter((e) => e.level === 'error');
  const messages = (reported.length > 0 ? reported : errors).map((e) => e.message.trim()).filter(Boolean);
  if (messages.length === 0) {
    // Graphviz says nothing when the input holds no graph at all (only comments, say).
    return syntaxError('Graphviz found no graph in the DOT source. It must contain one, for example: digraph { a -> b }');
  }
  const line = lineOf(messages[0], dot);
  const message = `Graphviz could not render the graph: ${messages.join('\n')}`;
  return line === undefined ? syntaxError(message) : syntaxError(message, line, clip(dot.split('\n')[line - 1].trim(), 200));
}

/** The 1-based line a Graphviz syntax error names ("syntax error in line 3 near '->'"), if it is in the source. */
function lineOf(message: string, dot: string): number | undefined {
  const match = /\bin line (\d+)\b/.exec(message);
  if (!match) return undefined;
  const line = Number(match[1]);
  // `#line` directives can make Graphviz count differently; a line we cannot show is not reported.
  return line >= 1 && line <= dot.split('\n').length ? line : undefined;
}

const PX_PER_UNIT: Record<string, number> = { '': 1, px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** The root <svg>'s width and height in CSS pixels (Graphviz writes points: 1pt = 4/3 px). */
export function svgSizeOf(svg: string): { width: number; height: number } | null {
  const tag = /<svg\b[^>]*>/.exec(svg)?.[0];
  if (!tag) return null;
  const width = lengthInPx(/\swidth="([^"]*)"/.exec(tag)?.[1]);
  const height = lengthInPx(/\sheight="([^"]*)"/.exec(tag)?.[1]);
  return width && height ? { width, height } : null;
}

function lengthInPx(value: string | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*(px|pt|pc|in|cm|mm)?\s*$/i.exec(value ?? '');
  if (!match) return null;
  const px = Number(match[1]) * PX_PER_UNIT[(match[2] ?? '').toLowerCase()];
  return Number.isFinite(px) && px > 0 ? Math.round(px * 100) / 100 : null;
}

function failed(failure: RunFailure): Failed {
  return { ok: false, failure };
}

/** DOT that Graphviz refuses is the code's own error, with the line it names. */
function syntaxError(message: string, line?: number, excerpt?: string): Failed {
  return failed({ kind: 'code', engine: ENGINE, ename: 'DotSyntaxError', evalue: clip(message, GRAPHVIZ_LIMITS.maxMessageChars), ...(line === undefined ? {} : { line, excerpt: excerpt ?? '' }) });
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
