/**
 * Draws each label in the width Graphviz laid it out for. Graphviz sizes boxes and places labels
 * with its own metrics for the named font (Times by default), but an SVG shown as an image is drawn
 * with the viewer's installed fonts: where Times and its metric twins are missing (DejaVu Serif on
 * many Linux systems) the text was ~15 % wider and ran past its box. Each `<text>` gets the width
 * from Graphviz's own layout of the same render (its JSON output) as `textLength`, with glyphs and
 * spacing adjusted to it; where the viewer has Times, that is the width it draws anyway.
 */
import 'client-only';
import { z } from 'zod';
import { decodeEntities } from './sanitize-svg.client';

/** A label as Graphviz laid it out: its anchor point (Graphviz's y grows upwards), width and text. */
export type LayoutText = { x: number; y: number; width: number; text: string };

const textOp = z.object({ op: z.literal('T'), pt: z.tuple([z.number(), z.number()]), width: z.number().positive(), text: z.string() });
const drawn = z.record(z.string(), z.unknown());

/** Every text draw operation in Graphviz's JSON output: the graph's, its clusters', nodes' and edges' labels. */
export function layoutTexts(json: string): LayoutText[] {
  const graph = drawn.parse(JSON.parse(json));
  const elements = [graph, ...z.array(drawn).catch([]).parse(graph.objects), ...z.array(drawn).catch([]).parse(graph.edges)];
  return elements.flatMap((element) =>
    Object.entries(element)
      .filter(([key]) => key.endsWith('draw_'))
      .flatMap(([, ops]) => (Array.isArray(ops) ? ops : []))
      .flatMap((op) => {
        const parsed = textOp.safeParse(op);
        return parsed.success ? [{ x: parsed.data.pt[0], y: parsed.data.pt[1], width: parsed.data.width, text: parsed.data.text }] : [];
      }),
  );
}

const key = (x: number, y: number, text: string) => `${x.toFixed(2)}|${y.toFixed(2)}|${text}`;

/**
 * Gives each plain `<text>` of Graphviz's SVG the width of the label laid out at its position with
 * its text (the SVG's y is the layout's negated). Text that matches no label is left as it is.
 */
export function fitTexts(svg: string, texts: LayoutText[]): string {
  const widths = new Map(texts.map((label) => [key(label.x, -label.y, label.text), label.width]));
  return svg.replace(/<text\b([^>]*)>([^<]*)<\/text>/g, (whole, attributes: string, content: string) => {
    if (/\stextLength=/.test(attributes)) return whole;
    const x = Number(/\sx="([^"]*)"/.exec(attributes)?.[1]);
    const y = Number(/\sy="([^"]*)"/.exec(attributes)?.[1]);
    const width = Number.isFinite(x) && Number.isFinite(y) ? widths.get(key(x, y, decodeEntities(content))) : undefined;
    return width === undefined ? whole : `<text${attributes} textLength="${width}" lengthAdjust="spacingAndGlyphs">${content}</text>`;
  });
}
