/**
 * A headless Vega view of a Vega-Lite spec, for images of a chart (the model's PNG). Built with
 * the same guarantees as the chart in the page (load-vega.ts): expressions parsed to an AST and
 * interpreted (no `Function`, so it runs under a CSP without 'unsafe-eval'), and a loader that
 * refuses every URL.
 */
import 'client-only';
import type { Loader, View } from 'vega';
import type { TopLevelSpec } from 'vega-lite';
import { safeSpec, type ChartSpec } from './vegalite';

/** The parts of the vega, vega-lite and vega-interpreter modules this needs. */
export type ChartModules = {
  vega: Pick<typeof import('vega'), 'parse' | 'View' | 'logger' | 'Error'>;
  vegaLite: Pick<typeof import('vega-lite'), 'compile'>;
  expressionInterpreter: unknown;
};

export async function runChartView(modules: ChartModules, spec: ChartSpec, loader: Loader): Promise<View> {
  const { vega, vegaLite, expressionInterpreter } = modules;
  const logger = vega.logger(vega.Error);
  const compiled = vegaLite.compile(safeSpec(spec) as unknown as TopLevelSpec, { logger }).spec;
  const view = new vega.View(vega.parse(compiled, undefined, { ast: true }), { renderer: 'none', loader, logger, expr: expressionInterpreter });
  try {
    await view.runAsync();
    return view;
  } catch (error) {
    view.finalize();
    throw error;
  }
}
