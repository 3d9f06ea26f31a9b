import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';
import { expressionInterpreter } from 'vega-interpreter';
import { runChartView } from './chart-view.client';
import { noNetworkLoader } from './no-network-loader.client';

/** Uses every kind of generated code Vega has: expressions, field accessors, comparators, selections. */
const SPEC = {
  data: { values: [{ k: 'a', v: 3 }, { k: 'b', v: 5 }, { k: 'c', v: 1 }, { k: 'd', v: 8 }] },
  transform: [{ calculate: 'datum.v * 2 + length(datum.k)', as: 'w' }, { filter: 'datum.w > 3' }],
  params: [{ name: 'pick', select: { type: 'point', on: 'pointerover' } }],
  mark: { type: 'bar', tooltip: true },
  encoding: {
    x: { field: 'k', type: 'nominal', sort: { field: 'w', order: 'descending' } },
    y: { field: 'w', aggregate: 'sum', type: 'quantitative' },
    color: { condition: { param: 'pick', value: 'orange' }, value: 'steelblue' },
  },
};

/** Stands in for a CSP without 'unsafe-eval': code that makes code throws, and is recorded. */
const RealFunction = globalThis.Function;
let generated: string[] = [];
function trapFunction() {
  generated = [];
  const trap = (args: unknown[]) => {
    generated.push(String(args.at(-1)));
    throw new EvalError('Function() is blocked by the CSP');
  };
  globalThis.Function = new Proxy(RealFunction, { apply: (_target, _this, args) => trap(args), construct: (_target, args) => trap(args) });
}

beforeEach(trapFunction);
afterEach(() => {
  globalThis.Function = RealFunction;
});

describe('runChartView', () => {
  it('draws a chart with expressions, sorting, aggregation and a selection without generating code', async () => {
    const { loader, refused } = noNetworkLoader();
    const view = await runChartView({ vega, vegaLite, expressionInterpreter }, SPEC, loader);
    const svg = await view.toSVG();
    view.finalize();
    expect(generated).toEqual([]);
    expect(refused).toEqual([]);
    // Three bars survive the filter ("c" has w = 3), sorted by w, descending.
    const bars = [...svg.matchAll(/<path aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="bar" d="M([\d.]+),/g)]
      .sort((a, b) => Number(a[2]) - Number(b[2]))
      .map((match) => match[1]);
    expect(bars).toEqual(['k: d; Sum of w: 17', 'k: b; Sum of w: 11', 'k: a; Sum of w: 7']);
  });

  it('the trap is real: Vega without the interpreter generates code and fails', async () => {
    const { loader } = noNetworkLoader();
    const compiled = vegaLite.compile(SPEC as vegaLite.TopLevelSpec).spec;
    await expect(async () => {
      const view = new vega.View(vega.parse(compiled), { renderer: 'none', loader });
      await view.runAsync();
    }).rejects.toThrow(/blocked by the CSP/);
    expect(generated.length).toBeGreaterThan(0);
  });

  it('asks its loader for a data URL, which refuses it', async () => {
    const { loader, refused } = noNetworkLoader();
    const view = await runChartView({ vega, vegaLite, expressionInterpreter }, { data: { url: 'https://example.com/data.csv' }, mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' } } }, loader);
    view.finalize();
    expect(refused).toEqual(['https://example.com/data.csv']);
  });

  it('ignores embed options a spec sets for itself', async () => {
    const { loader } = noNetworkLoader();
    const view = await runChartView({ vega, vegaLite, expressionInterpreter }, { ...SPEC, usermeta: { embedOptions: { ast: false } } }, loader);
    view.finalize();
    expect(generated).toEqual([]);
  });
});
