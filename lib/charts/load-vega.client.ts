/**
 * Vega, Vega-Lite and vega-embed, loaded on first use (a page without charts never downloads
 * them), and the options that let them run under the page's CSP, which has no 'unsafe-eval':
 * Vega compiles its expressions (and field accessors and comparators) with `Function` unless it
 * is told to parse them to an AST (`ast: true`) and evaluate that with vega-interpreter.
 */
import 'client-only';
import type { EmbedOptions } from 'vega-embed';
import type { Loader } from 'vega';
import { formatTooltip } from './tooltip.client';

export type VegaModules = Awaited<ReturnType<typeof importVega>>;

async function importVega() {
  const [embedModule, interpreter] = await Promise.all([import('vega-embed'), import('vega-interpreter')]);
  return { embed: embedModule.default, vega: embedModule.vega, vegaLite: embedModule.vegaLite, expressionInterpreter: interpreter.expressionInterpreter };
}

let loading: Promise<VegaModules> | null = null;

export function loadVega(): Promise<VegaModules> {
  loading ??= importVega().catch((error: unknown) => {
    loading = null; // a failed chunk load may succeed next time
    throw error;
  });
  return loading;
}

/**
 * vega-embed's options for a chart in the page: no eval, no network, the default tooltip handler
 * (with a formatter that shows no images), only the export actions (PNG/SVG, drawn in the page),
 * and no interaction beyond what the spec itself declares (selections and params).
 */
export function embedOptions(modules: VegaModules, loader: Loader): EmbedOptions {
  return {
    mode: 'vega-lite',
    ast: true,
    expr: modules.expressionInterpreter,
    loader,
    renderer: 'svg',
    logLevel: modules.vega.Error,
    tooltip: { formatTooltip },
    actions: { export: { svg: true, png: true }, source: false, compiled: false, editor: false },
    downloadFileName: 'chart',
  };
}
