/**
 * Gives each Vega-Lite chart of a run a PNG of itself (`image/png` in the same bundle), drawn in
 * the page before the result goes to the model, so the model sees charts through the same image
 * path as matplotlib figures. The page keeps drawing the interactive chart from the spec.
 */
import 'client-only';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { MODEL_VIEW_CAPS } from '@/lib/runtime/limits';
import { vegaLiteSpecOf, type ChartSpec } from './vegalite';

export type ChartRenderer = (spec: ChartSpec) => Promise<string | null>;

async function defaultRenderer(spec: ChartSpec): Promise<string | null> {
  const { chartToPng } = await import('./chart-to-png.client');
  return chartToPng(spec);
}

function hasImage(output: Output): boolean {
  return (output.output_type === 'display_data' || output.output_type === 'execute_result') && Boolean(output.data['image/png'] || output.data['image/jpeg']);
}

/**
 * The result with a PNG added to each chart among the run's first images the model is shown
 * (MODEL_VIEW_CAPS.imagesPerRun, counting images the run already had); later charts, and charts
 * that cannot be drawn, are left as they are and reach the model as text. Never rejects; the spec
 * objects are kept as they are, so a chart already on screen is not drawn again.
 */
export async function withChartImages(result: RunResult, render: ChartRenderer = defaultRenderer): Promise<RunResult> {
  let images = 0;
  const jobs: Array<Promise<void>> = [];
  const outputs = [...result.outputs];
  outputs.forEach((output, index) => {
    if (images >= MODEL_VIEW_CAPS.imagesPerRun) return;
    if (hasImage(output)) {
      images += 1;
      return;
    }
    if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return;
    const spec = vegaLiteSpecOf(output.data);
    if (!spec) return;
    images += 1;
    jobs.push(
      // Without its PNG the model gets the chart described in words (lib/ai/run-to-model.server.ts); the page shows the chart either way.
      render(spec)
        .catch((error: unknown) => {
          console.warn('A chart could not be drawn as a PNG for the model; it is described in words instead.', error);
          return null;
        })
        .then((png) => {
          if (png) outputs[index] = { ...output, data: { ...output.data, 'image/png': png } };
        }),
    );
  });
  if (jobs.length === 0) return result;
  await Promise.all(jobs);
  return { ...result, outputs };
}
