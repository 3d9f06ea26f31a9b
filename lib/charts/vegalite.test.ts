import { describe, expect, it } from 'vitest';
import { mimeBundleSchema, VEGALITE_SPEC_MAX_BYTES } from '@/lib/runtime/protocol';
import { describeChart, findUrls, fittedSpec, safeSpec, urlRefusal, vegaLiteSpecOf } from './vegalite';

const BAR = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  title: 'Units',
  data: { values: [{ k: 'a', v: 3, url: 'https://example.com/a-column-not-a-source' }, { k: 'b', v: 5 }, { k: 'c', v: 1 }] },
  mark: { type: 'bar', tooltip: true },
  encoding: { x: { field: 'k', type: 'nominal' }, y: { field: 'v', aggregate: 'sum', type: 'quantitative' } },
};

describe('the protocol', () => {
  it('keeps a v5 or v6 spec as an object', () => {
    const parsed = mimeBundleSchema.parse({ 'application/vnd.vegalite.v5+json': BAR, 'text/plain': '<chart>' });
    expect(parsed['application/vnd.vegalite.v5+json']).toEqual(BAR);
    expect(mimeBundleSchema.parse({ 'application/vnd.vegalite.v6+json': { mark: 'line' } })['application/vnd.vegalite.v6+json']).toEqual({ mark: 'line' });
  });

  it('refuses a spec that is not an object, or larger than the cap', () => {
    expect(mimeBundleSchema.safeParse({ 'application/vnd.vegalite.v5+json': [1, 2] }).success).toBe(false);
    expect(mimeBundleSchema.safeParse({ 'application/vnd.vegalite.v5+json': 'mark: bar' }).success).toBe(false);
    const big = { mark: 'bar', data: { values: [{ text: 'x'.repeat(VEGALITE_SPEC_MAX_BYTES) }] } };
    expect(mimeBundleSchema.safeParse({ 'application/vnd.vegalite.v5+json': big }).success).toBe(false);
  });
});

describe('vegaLiteSpecOf', () => {
  it('finds the spec, preferring the newer version', () => {
    expect(vegaLiteSpecOf({ 'text/plain': 'x' })).toBeNull();
    expect(vegaLiteSpecOf({ 'application/vnd.vegalite.v5+json': BAR })).toBe(BAR);
    const v6 = { mark: 'line' };
    expect(vegaLiteSpecOf({ 'application/vnd.vegalite.v5+json': BAR, 'application/vnd.vegalite.v6+json': v6 })).toBe(v6);
  });
});

describe('safeSpec', () => {
  it('drops usermeta.embedOptions and keeps the rest', () => {
    const spec = { ...BAR, usermeta: { embedOptions: { actions: true, ast: false, bind: 'body' }, mine: 1 } };
    expect(safeSpec(spec)).toEqual({ ...BAR, usermeta: { mine: 1 } });
    expect(safeSpec(BAR)).toBe(BAR);
  });
});

describe('fittedSpec', () => {
  it('fills the card with a single view whose width the spec leaves open (Altair, pandas, hand-written)', () => {
    const altair = { ...BAR, config: { view: { continuousWidth: 300, continuousHeight: 300 } } };
    for (const spec of [BAR, altair, { ...BAR, mark: 'line', encoding: { x: { field: 'k', type: 'temporal' } } }, { layer: [BAR, BAR], data: BAR.data }]) {
      expect(fittedSpec(spec)).toMatchObject({ width: 'container', autosize: { type: 'fit', contains: 'padding' } });
    }
  });

  it('leaves a width the spec sets, its own autosize, and compositions that cannot take the card width', () => {
    expect(fittedSpec({ ...BAR, width: 420 })).toEqual({ ...BAR, width: 420 });
    expect(fittedSpec({ ...BAR, width: { step: 30 } })).toEqual({ ...BAR, width: { step: 30 } });
    expect(fittedSpec({ ...BAR, autosize: 'none' })).toMatchObject({ width: 'container', autosize: 'none' });
    for (const composed of [{ hconcat: [BAR, BAR] }, { vconcat: [BAR] }, { concat: [BAR] }, { facet: { field: 'k' }, spec: BAR }, { repeat: ['v'], spec: BAR }, { ...BAR, encoding: { ...BAR.encoding, column: { field: 'k' } } }, { ...BAR, encoding: { ...BAR.encoding, facet: { field: 'k' } } }]) {
      expect(fittedSpec(composed)).toEqual(composed);
    }
  });
});

describe('findUrls', () => {
  it('finds data URLs anywhere in a spec, but not in data rows', () => {
    expect(findUrls(BAR)).toEqual([]);
    const layered = {
      layer: [
        { data: { url: 'https://example.com/data.csv' }, mark: 'bar' },
        { mark: 'image', encoding: { url: { value: 'https://example.com/i.png' } } },
        { transform: [{ lookup: 'id', from: { data: { url: 'data/lookup.json' }, key: 'id' } }], mark: 'point' },
      ],
      datasets: { d: [{ url: 'https://example.com/row' }] },
    };
    expect(findUrls(layered)).toEqual(['https://example.com/data.csv', 'https://example.com/i.png', 'data/lookup.json']);
    expect(findUrls({ data: [{ name: 't', url: { signal: "'https://' + host" } }] })[0]).toContain('computed by the expression');
  });

  it('says what to do instead', () => {
    expect(urlRefusal(['https://example.com/data.csv'])).toContain('https://example.com/data.csv');
    expect(urlRefusal(['u'])).toContain('"data": {"values": [...]}');
  });

  it('names each URL once, however often the chart asked for it (a chart drawn again at a new width asks again)', () => {
    const logo = 'https://example.com/logo «ü».png';
    expect(urlRefusal([logo, logo, 'https://example.com/b', logo])).toContain(`(${logo}, https://example.com/b)`);
  });
});

describe('describeChart', () => {
  it('names the marks, encodings and inline rows', () => {
    expect(describeChart(BAR)).toBe('Vega-Lite bar chart titled "Units"; encodings: x = k (nominal), y = sum(v) (quantitative); 3 data rows inline');
  });

  it('counts Altair-style named datasets and reads layers and shared encodings', () => {
    const spec = {
      data: { name: 'data-1' },
      datasets: { 'data-1': Array.from({ length: 42 }, (_, i) => ({ t: i, y: i * i })) },
      encoding: { x: { field: 't', type: 'temporal', timeUnit: 'year' } },
      layer: [{ mark: 'line', encoding: { y: { field: 'y', type: 'quantitative' } } }, { mark: { type: 'point' }, params: [{ name: 'grid', select: 'interval', bind: 'scales' }] }],
    };
    const text = describeChart(spec);
    expect(text).toContain('line + point chart (layer)');
    expect(text).toContain('x = year(t) (temporal)');
    expect(text).toContain('y = y (quantitative)');
    expect(text).toContain('42 data rows inline');
    expect(text).toContain('interactive');
  });

  it('says when the data is at a URL', () => {
    expect(describeChart({ data: { url: 'https://example.com/data.csv' }, mark: 'bar' })).toContain('asks for data from https://example.com/data.csv');
  });

  it('copes with specs that are not Vega-Lite at all', () => {
    expect(describeChart({})).toBe('Vega-Lite chart');
    expect(describeChart({ mark: 7, encoding: 'x', layer: 'no' })).toBe('Vega-Lite chart');
  });
});
