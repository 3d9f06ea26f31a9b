import { describe, expect, it } from 'vitest';
import { fitTexts, layoutTexts } from './fit-text.client';

describe('fitTexts', () => {
  it('fits a text that matches a label by position and text, and leaves any other as it was', () => {
    const svg = '<g><text x="10.5" y="-20" font-size="14.00">a &amp; b</text><text x="10.5" y="-20">other</text><text x="1" y="-2" textLength="5">kept</text></g>';
    const fitted = fitTexts(svg, [
      { x: 10.5, y: 20, width: 42.25, text: 'a & b' },
      { x: 1, y: 2, width: 99, text: 'kept' },
    ]);
    expect(fitted).toBe('<g><text x="10.5" y="-20" font-size="14.00" textLength="42.25" lengthAdjust="spacingAndGlyphs">a &amp; b</text><text x="10.5" y="-20">other</text><text x="1" y="-2" textLength="5">kept</text></g>');
  });

  it('reads text operations from every draw list of the graph, its objects and edges, and skips what is not one', () => {
    const json = JSON.stringify({
      _ldraw_: [{ op: 'F', size: 14, face: 'Times' }, { op: 'T', pt: [1, 2], align: 'c', width: 30, text: 'graph' }],
      objects: [{ _ldraw_: [{ op: 'T', pt: [3, 4], align: 'c', width: 40, text: 'node' }], _draw_: [{ op: 'p', points: [] }] }],
      edges: [{ _tldraw_: [{ op: 'T', pt: [5, 6], align: 'l', width: 50, text: 'tail' }], _ldraw_: [{ op: 'T', pt: [7, 8], width: -1, text: 'bad' }] }],
    });
    expect(layoutTexts(json)).toEqual([
      { x: 1, y: 2, width: 30, text: 'graph' },
      { x: 3, y: 4, width: 40, text: 'node' },
      { x: 5, y: 6, width: 50, text: 'tail' },
    ]);
  });
});
