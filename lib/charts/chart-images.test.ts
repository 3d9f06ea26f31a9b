import { describe, expect, it } from 'vitest';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { MODEL_VIEW_CAPS } from '@/lib/runtime/limits';
import { withChartImages } from './chart-images.client';

const V5 = 'application/vnd.vegalite.v5+json';
const chart = (n: number): Output => ({ output_type: 'display_data', data: { [V5]: { mark: 'bar', n }, 'text/plain': `<chart ${n}>` } });
const png = (n: number): Output => ({ output_type: 'display_data', data: { 'image/png': `cG5n${n}` } });
const run = (outputs: Output[]): RunResult => ({ status: 'ok', durationMs: 1, outputs });

describe('withChartImages', () => {
  it('adds a PNG to each chart, in its own bundle, keeping the spec object', async () => {
    const result = run([{ output_type: 'stream', name: 'stdout', text: 'hi\n' }, chart(1), { output_type: 'execute_result', data: { [V5]: { mark: 'line' } } }]);
    const drawn: unknown[] = [];
    const next = await withChartImages(result, async (spec) => {
      drawn.push(spec);
      return 'iVBORdrawn';
    });
    expect(drawn).toEqual([{ mark: 'bar', n: 1 }, { mark: 'line' }]);
    expect(next.outputs[0]).toBe(result.outputs[0]);
    const [, first, second] = next.outputs;
    expect(first.output_type === 'display_data' && first.data['image/png']).toBe('iVBORdrawn');
    expect(first.output_type === 'display_data' && first.data[V5]).toBe((result.outputs[1] as { data: Record<string, unknown> }).data[V5]);
    expect(second.output_type === 'execute_result' && second.data['image/png']).toBe('iVBORdrawn');
    expect(result.outputs[1]).toEqual(chart(1)); // the input is not changed
  });

  it('draws only charts among the images the model is shown', async () => {
    const outputs = [png(1), chart(2), png(3), ...Array.from({ length: 5 }, (_, i) => chart(4 + i))];
    let calls = 0;
    const next = await withChartImages(run(outputs), async () => {
      calls += 1;
      return 'iVBOR';
    });
    expect(calls).toBe(MODEL_VIEW_CAPS.imagesPerRun - 2);
    const withPng = next.outputs.filter((o) => o.output_type === 'display_data' && o.data[V5] && o.data['image/png']);
    expect(withPng).toHaveLength(MODEL_VIEW_CAPS.imagesPerRun - 2);
  });

  it('leaves a chart without an image when drawing fails, and returns the same result when there is nothing to draw', async () => {
    const failing = run([chart(1), chart(2)]);
    const next = await withChartImages(failing, async (spec) => {
      if ((spec as { n: number }).n === 1) throw new Error('boom');
      return null;
    });
    expect(next.outputs).toEqual(failing.outputs);
    const plain = run([png(1)]);
    expect(await withChartImages(plain, async () => 'x')).toBe(plain);
  });

  it('does not draw a chart that already has a PNG', async () => {
    const drawn = { output_type: 'display_data', data: { [V5]: { mark: 'bar' }, 'image/png': 'old' } } as Output;
    let calls = 0;
    await withChartImages(run([drawn]), async () => {
      calls += 1;
      return 'new';
    });
    expect(calls).toBe(0);
  });
});
