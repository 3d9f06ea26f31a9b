/**
 * Draws a Vega-Lite chart to a PNG in the page, for the model's image input: the model sees what
 * the user sees. Bounded in size; a chart that asks for a URL, fails, or takes too long gets no
 * image (the model then gets the chart described in words, lib/ai/run-to-model.server.ts).
 */
import 'client-only';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { runChartView } from './chart-view.client';
import { loadVega } from './load-vega.client';
import { noNetworkLoader } from './no-network-loader.client';
import { findUrls, type ChartSpec } from './vegalite';

const MAX_SIDE = 1_600;
const RENDER_TIMEOUT_MS = 10_000;

/** The chart as base64 PNG bytes (no data: prefix), or null when it cannot be drawn. */
export async function chartToPng(spec: ChartSpec): Promise<string | null> {
  if (findUrls(spec).length > 0) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`A chart took more than ${RENDER_TIMEOUT_MS / 1000} s to draw as a PNG; the model gets it described in words instead.`);
      resolve(null);
    }, RENDER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([draw(spec), timeout]);
  } catch (error) {
    console.warn('A chart could not be drawn as a PNG; the model gets it described in words instead.', error);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

async function draw(spec: ChartSpec): Promise<string | null> {
  const modules = await loadVega();
  const { loader, refused } = noNetworkLoader();
  const view = await runChartView(modules, spec, loader);
  try {
    if (refused.length > 0) return null;
    const canvas = await view.toCanvas(1);
    const png = toBoundedPng(canvas);
    return png.length <= (OUTPUT_CAPS.imageBytes * 4) / 3 ? png : null;
  } finally {
    view.finalize();
  }
}

/** A copy at most MAX_SIDE pixels on its longer side, on white (a transparent PNG reads as black to some models). */
function toBoundedPng(source: HTMLCanvasElement): string {
  const scale = Math.min(1, MAX_SIDE / Math.max(source.width, source.height, 1));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(source.width * scale));
  canvas.height = Math.max(1, Math.round(source.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
}
