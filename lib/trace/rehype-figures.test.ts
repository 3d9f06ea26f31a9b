import { describe, expect, it } from 'vitest';
import type { Root } from 'hast';
import { rehypeFigures } from './rehype-figures.client';

const p = (...children: Root['children']): Root => ({ type: 'root', children: [{ type: 'element', tagName: 'p', properties: {}, children: children as never }] });

describe('rehypeFigures', () => {
  it('wraps figures of prose and leaves code, links, years and labels alone', () => {
    const tree = p(
      { type: 'text', value: 'Revenue grew 12.4% to $3.2M in 2023, see step 2 ' },
      { type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: '42' }] },
      { type: 'element', tagName: 'a', properties: { href: '/x' }, children: [{ type: 'text', value: '7 links' }] },
      { type: 'element', tagName: 'strong', properties: {}, children: [{ type: 'text', value: '1,234' }] },
    );
    rehypeFigures()(tree);
    const html = JSON.stringify(tree);
    const figures = [...html.matchAll(/"tagName":"trace-figure","properties":\{\},"children":\[\{"type":"text","value":"([^"]+)"/g)].map((m) => m[1]);
    expect(figures).toEqual(['12.4%', '$3.2M', '1,234']);
    expect(html).toContain('"value":"42"');
    expect(html).toContain('" in 2023, see step 2 "');
  });
});
