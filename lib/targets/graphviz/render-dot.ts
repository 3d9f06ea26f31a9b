/**
 * Renders Graphviz DOT to SVG with @viz-js/viz (Graphviz compiled to wasm; the wasm is embedded in
 * the JS, so it needs no network). Pure: runs the same in Node and in a worker. The SVG it returns
 * is Graphviz's raw output; callers must pass it through sanitizeSvg before showing or saving it.
 *
 * Failures come back as values with a message meant for both a person and the model that wrote
 * the DOT, so that the next attempt can fix it.
 */
import { instance, type RenderError, type Viz } from '@viz-js/viz';
import { fitTexts, layoutTexts } from './fit-text';
import { GRAPHVIZ_LIMITS } from './protocol';

/** DOT that does not draw is a run's result (its words and line go to the cell and the model), not a failure of ours. */
export type RenderDotResult =
  | { ok: true; svg: string; width: number; height: number }
  | { ok: false; message: string; line?: number };

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
    return fail(
      `The DOT source is ${dot.length.toLocaleString('en-US')} characters long; the limit is ` +
        `${GRAPHVIZ_LIMITS.maxDotChars.toLocaleString('en-US')}. Make the graph smaller or split it into several graphs.`,
    );
  }
  if (dot.trim() === '') return fail('The DOT source is empty. Write a graph, for example: digraph { a -> b }');

  let viz: Viz;
  try {
    viz = await loadViz();
  } catch (error) {
    return fail(`Graphviz could not start: ${describe(error)}`);
  }

  let result: ReturnType<Viz['renderFormats']>;
  try {
    // One layout, two outputs: the picture, and the layout's label widths to draw them in.
    result = viz.renderFormats(dot, ['svg', 'json'], { engine: 'dot' });
  } catch (error) {
    // viz.render throws only when the wasm itself failed (an abort, out of memory); such an
    // instance is unusable, so the next render starts a fresh one.
    vizPromise = null;
    return fail(`Graphviz crashed while rendering this graph (${describe(error)}). Make the graph smaller or simpler.`);
  }

  if (result.status === 'failure') return failureOf(dot, result.errors);
  // Refused before its labels are fitted (no work on an SVG that is not kept), and after (fitting adds to it).
  if (result.output.svg.length > GRAPHVIZ_LIMITS.maxSvgChars) return tooLarge();
  const svg = fitTexts(result.output.svg, layoutTexts(result.output.json));
  if (svg.length > GRAPHVIZ_LIMITS.maxSvgChars) return tooLarge();
  const size = svgSizeOf(svg);
  if (!size) return fail('Graphviz produced an SVG without a usable width and height.');
  return { ok: true, svg, ...size };
}

function tooLarge(): { ok: false; message: string } {
  return fail(`The rendered SVG is larger than ${GRAPHVIZ_LIMITS.maxSvgChars.toLocaleString('en-US')} characters. Make the graph smaller.`);
}

function failureOf(dot: string, errors: RenderError[]): RenderDotResult {
  const reported = errors.filter((e) => e.level === 'error');
  const messages = (reported.length > 0 ? reported : errors).map((e) => e.message.trim()).filter(Boolean);
  if (messages.length === 0) {
    // Graphviz says nothing when the input holds no graph at all (only comments, say).
    return fail('Graphviz found no graph in the DOT source. It must contain one, for example: digraph { a -> b }');
  }
  const line = lineOf(messages[0], dot);
  let message = `Graphviz could not render the graph: ${messages.join('\n')}`;
  if (line !== undefined) message += `\n${line} | ${clip(dot.split('\n')[line - 1].trim(), 200)}`;
  return line === undefined ? fail(message) : { ...fail(message), line };
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

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message: clip(message, GRAPHVIZ_LIMITS.maxMessageChars) };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
