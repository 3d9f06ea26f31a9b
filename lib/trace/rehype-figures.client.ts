/**
 * A rehype plugin that wraps each figure of rendered prose in a `<trace-figure>` element, found by
 * the same rules as `proseFigures` (code, links and the like are skipped), so the page can mark it
 * with its trace. The element holds only the figure's text; what it says comes from the trace.
 */
import 'client-only';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { findFigures, SKIPPED_HTML_TAGS } from './prose';

export const FIGURE_TAG = 'trace-figure';

function splitText(value: string): ElementContent[] | null {
  const figures = findFigures(value);
  if (figures.length === 0) return null;
  const pieces: ElementContent[] = [];
  let at = 0;
  for (const figure of figures) {
    if (figure.start > at) pieces.push({ type: 'text', value: value.slice(at, figure.start) });
    pieces.push({ type: 'element', tagName: FIGURE_TAG, properties: {}, children: [{ type: 'text', value: figure.raw }] });
    at = figure.end;
  }
  if (at < value.length) pieces.push({ type: 'text', value: value.slice(at) });
  return pieces;
}

function walk(node: Root | Element): void {
  const children: Array<RootContent | ElementContent> = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === 'text') {
      const pieces = splitText(child.value);
      if (pieces) {
        children.push(...pieces);
        changed = true;
        continue;
      }
    } else if (child.type === 'element' && !SKIPPED_HTML_TAGS.has(child.tagName) && child.tagName !== FIGURE_TAG) {
      walk(child);
    }
    children.push(child);
  }
  if (changed) node.children = children as typeof node.children;
}

export function rehypeFigures() {
  return (tree: Root) => walk(tree);
}
