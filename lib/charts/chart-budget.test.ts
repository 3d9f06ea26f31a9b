import { describe, expect, it } from 'vitest';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import { OutputBudget } from '@/lib/runtime/output-budget.client';
import { failureForPerson } from '@/lib/runtime/run-failure';
import type { Output } from '@/lib/runtime/protocol';

const V5 = 'application/vnd.vegalite.v5+json';
const chart = (n: number): Output => ({ output_type: 'display_data', data: { [V5]: { mark: 'bar', data: { values: [{ n }] } }, 'text/plain': `<chart ${n}>` } });
const admit = (budget: OutputBudget, output: Output) => budget.admit(output, JSON.stringify(output).length);

/** Charts arrive from the worker like any output: the page's budget caps them (lib/runtime/output-budget.client.ts). */
describe('charts in the output budget', () => {
  it('keeps the first imagesPerRun charts; later ones keep only their text, with a notice', () => {
    const budget = new OutputBudget({ ...OUTPUT_CAPS, imagesPerRun: 2 });
    for (let i = 0; i < 4; i += 1) admit(budget, chart(i));
    const kept = budget.outputs.map((o) => (o.output_type === 'display_data' ? Object.keys(o.data).sort() : []));
    expect(kept).toEqual([[V5, 'text/plain'], [V5, 'text/plain'], ['text/plain'], ['text/plain']]);
    expect(failureForPerson(budget.failure!)).toContain('charts past the first 2');
  });

  it('counts a chart spec against the run byte budget', () => {
    const first = chart(1);
    const size = JSON.stringify(first).length;
    const budget = new OutputBudget({ ...OUTPUT_CAPS, runBytes: size * 2 + 10 });
    for (let i = 0; i < 3; i += 1) admit(budget, chart(i));
    expect(budget.outputs).toHaveLength(2);
    expect(failureForPerson(budget.failure!)).toContain('in total');
  });
});
