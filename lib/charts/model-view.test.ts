import { describe, expect, it } from 'vitest';
import { runToModel } from '@/lib/ai/run-to-model.server';
import type { RunResult } from '@/lib/runtime/protocol';

const V5 = 'application/vnd.vegalite.v5+json';
const SPEC = { data: { values: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }] }, mark: 'bar', encoding: { x: { field: 'k', type: 'nominal' }, y: { field: 'v', type: 'quantitative' } } };
const run = (data: Record<string, unknown>): RunResult => ({ status: 'ok', durationMs: 5, outputs: [{ output_type: 'display_data', data }] });

/** What the model sees of a chart (lib/ai/run-to-model.server.ts). */
describe('a chart in the model view', () => {
  it('without a PNG: described in words (mark, encodings, rows), never as the raw spec', async () => {
    const view = await runToModel(run({ [V5]: SPEC, 'text/plain': '<Vega-Lite chart: bar>' }), { includeImages: true });
    expect(view.images).toEqual([]);
    expect(view.text).toContain('display (a chart; no image of it was made):\nVega-Lite bar chart; encodings: x = k (nominal), y = v (quantitative); 2 data rows inline');
    expect(view.text).not.toContain('"values"');
  });

  it('with a PNG: the image is attached and the chart named beside it', async () => {
    const view = await runToModel(run({ [V5]: SPEC, 'image/png': 'iVBORw0K' }), { includeImages: true });
    expect(view.images).toEqual([{ mediaType: 'image/png', data: 'iVBORw0K' }]);
    expect(view.text).toContain('[image 1: shown to the user, attached] (an interactive chart: Vega-Lite bar chart;');
  });

  it('a chart that names a URL tells the model it was not drawn', async () => {
    const view = await runToModel(run({ [V5]: { data: { url: 'https://example.com/data.csv' }, mark: 'bar' } }), { includeImages: true });
    expect(view.text).toContain('asks for data from https://example.com/data.csv');
    expect(view.text).toContain('not drawn');
  });
});
