import { describe, expect, it } from 'vitest';
import { formatTooltip } from './tooltip.client';

const escape = (value: unknown) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;');

describe('formatTooltip', () => {
  it('shows a title and a table of escaped values', () => {
    const html = formatTooltip({ title: '<b>t</b>', k: 'a', v: 3, nested: { a: [1] } }, escape, 2);
    expect(html).toBe('<h2>&lt;b>t&lt;/b></h2><table><tr><td class="key">k</td><td class="value">a</td></tr><tr><td class="key">v</td><td class="value">3</td></tr><tr><td class="key">nested</td><td class="value">{"a":[1]}</td></tr></table>');
  });

  it('never makes an image from the spec', () => {
    const html = formatTooltip({ image: 'https://example.com/track.png', k: 1 }, escape, 2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('example.com');
  });

  it('formats plain values and arrays', () => {
    expect(formatTooltip('<x>', escape, 2)).toBe('&lt;x>');
    expect(formatTooltip([1, 'a', { b: 2 }], escape, 2)).toBe('[1, a, {"b":2}]');
    expect(formatTooltip({}, escape, 2)).toBe('{}');
  });
});
