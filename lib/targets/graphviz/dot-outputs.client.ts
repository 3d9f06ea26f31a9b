/**
 * DOT that Python displays (`text/vnd.graphviz`, e.g. from networkx) is drawn by the same renderer
 * as a `graphviz` cell, in the page, before the run is stored or sent to the model: the bundle then
 * holds the SVG shown to the user and the PNG the model sees, beside the DOT source. A diagram that
 * cannot be drawn keeps its source and says why in its text, so the model can correct it.
 */
import 'client-only';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { IMAGE_MIME_TYPES } from '@/lib/runtime/mime-types';
import type { MimeBundle, Output, RunResult } from '@/lib/runtime/protocol';
import { failureForPerson, type Failed } from '@/lib/runtime/run-failure';
import { failureOfResult } from '@/lib/runtime/failed-run';
import type { PostProcessStep } from '../runner';
import { TARGETS } from '../registry';

/** A drawn diagram's bundle (SVG shown, PNG for the model, its text), or the run failure that kept it from being drawn. */
export type DrawnDot = { ok: true; bundle: MimeBundle } | Failed;
/** Draws DOT: by running the Graphviz target (drawDotOutputs, below). */
export type DrawDot = (dot: string) => Promise<DrawnDot>;

/**
 * The Graphviz target's post-processing step of every run (lib/targets/runners.client.ts): DOT a run
 * displayed is drawn by running the Graphviz target on it.
 */
export const drawDotOutputs: PostProcessStep = (result, { runners, timeoutMs }) =>
  withDrawnDiagrams(result, async (dot) => {
    const drawn = await runners.get(TARGETS.graphviz.id).run(dot, { files: [], timeoutMs });
    const picture = drawn.outputs.find((output) => output.output_type === 'display_data');
    if (drawn.status === 'ok' && picture?.output_type === 'display_data') return { ok: true, bundle: picture.data };
    return { ok: false, failure: failureOfResult(drawn, TARGETS.graphviz.name) ?? { kind: 'crashed', engine: TARGETS.graphviz.name, cause: 'fault', stateLost: false, detail: 'it drew no picture' } };
  });

function isPicture(data: MimeBundle): boolean {
  return IMAGE_MIME_TYPES.some((type) => data[type] !== undefined) || data['image/svg+xml'] !== undefined;
}

/**
 * The run with each undrawn DOT output drawn, one at a time (one Graphviz worker), up to the run's
 * image cap counting the pictures it already has; later ones are left as source with a note.
 */
export async function withDrawnDiagrams(result: RunResult, draw: DrawDot): Promise<RunResult> {
  if (!result.outputs.some((output) => 'data' in output && output.data['text/vnd.graphviz'] !== undefined)) return result;
  let pictures = 0;
  const outputs: Output[] = [];
  for (const output of result.outputs) {
    if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') {
      outputs.push(output);
      continue;
    }
    const dot = output.data['text/vnd.graphviz'];
    if (dot === undefined || isPicture(output.data)) {
      if (isPicture(output.data)) pictures += 1;
      outputs.push(output);
      continue;
    }
    if (pictures >= OUTPUT_CAPS.imagesPerRun) {
      outputs.push({ ...output, data: { ...output.data, 'text/plain': `<Graphviz diagram not drawn: a run shows at most ${OUTPUT_CAPS.imagesPerRun} images>` } });
      continue;
    }
    const drawn = await draw(dot);
    if (drawn.ok) {
      pictures += 1;
      const { 'text/plain': text, ...rest } = drawn.bundle;
      // Python's own text (a graph's repr) is kept when it gave one.
      const own = output.data['text/plain'];
      outputs.push({ ...output, data: { ...output.data, ...rest, 'text/plain': own && own !== DEFAULT_DOT_TEXT ? own : text } });
    } else {
      outputs.push({ ...output, data: { ...output.data, 'text/plain': `<Graphviz could not draw this diagram: ${failureForPerson(drawn.failure)}>` } });
    }
  }
  return { ...result, outputs };
}

/** What lib/targets/python/engine/runpad/formatters.py puts beside DOT when Python gave no text of its own. */
export const DEFAULT_DOT_TEXT = '<Graphviz diagram>';
