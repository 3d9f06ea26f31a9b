import { describe, expect, it } from 'vitest';
import { OUTPUT_CAPS } from './limits';
import { failureForPerson } from './run-failure';
import { OutputBudget } from './output-budget.client';
import type { Output } from './protocol';

const caps = { ...OUTPUT_CAPS, outputsPerRun: 5, imagesPerRun: 2, streamChars: 50, tableRows: 3, tableColumns: 2, textChars: 20, imageBytes: 100, runBytes: 10_000 };
const admit = (budget: OutputBudget, output: Output) => budget.admit(output, JSON.stringify(output).length);
const print = (text: string, name: 'stdout' | 'stderr' = 'stdout'): Output => ({ output_type: 'stream', name, text });
const png = (bytes = 8): Output => ({ output_type: 'display_data', data: { 'image/png': 'A'.repeat(bytes), 'text/plain': '<Figure>' } });

/** The page enforces every cap on what arrives, whoever sent it (finding 6 of the trust issue). */
describe('OutputBudget', () => {
  it('merges consecutive prints to one stream into one output', () => {
    const budget = new OutputBudget(caps);
    for (let i = 0; i < 10; i += 1) admit(budget, print(`${i}`));
    admit(budget, print('!', 'stderr'));
    expect(budget.outputs).toEqual([print('0123456789'), print('!', 'stderr')]);
  });

  it('keeps a progress line updated in place at its last state, across outputs, and counts only that', () => {
    const budget = new OutputBudget(caps);
    admit(budget, print('start\n'));
    for (let i = 0; i <= 100; i += 1) admit(budget, print(`\r${i}% done`));
    admit(budget, print('\nend\n'));
    expect(budget.outputs).toEqual([print('start\n100% done\nend\n')]);
    expect(budget.failure).toBeNull();
  });

  it('stops printed text at the cap (plus room for the elision marker) and says so once', () => {
    const budget = new OutputBudget({ ...caps, runBytes: 1e9 });
    for (let i = 0; i < 2_000; i += 1) admit(budget, print('0123456789'));
    expect((budget.outputs[0] as { text: string }).text).toHaveLength(10_050);
    expect(failureForPerson(budget.failure!)).toContain('printed output past 50 characters');
  });

  it('keeps at most outputsPerRun outputs: 8,000 display() calls cost 5 elements', () => {
    const budget = new OutputBudget(caps);
    for (let i = 0; i < 8_000; i += 1) admit(budget, { output_type: 'display_data', data: { 'text/plain': String(i) } });
    expect(budget.outputs).toHaveLength(5);
    expect(failureForPerson(budget.failure!)).toContain('outputs past the first 5');
  });

  it('drops images past the count or size cap but keeps their text', () => {
    const budget = new OutputBudget(caps);
    for (let i = 0; i < 4; i += 1) admit(budget, png());
    const images = budget.outputs.filter((o) => 'data' in o && o.data['image/png']);
    expect(images).toHaveLength(2);
    expect(budget.outputs).toHaveLength(4);
    const huge = new OutputBudget(caps);
    admit(huge, png(caps.imageBytes * 2));
    expect('data' in huge.outputs[0] && huge.outputs[0].data['image/png']).toBeFalsy();
    expect(failureForPerson(huge.failure!)).toContain('images over');
  });

  it('cuts tables to the row and column caps, keeping the full shape', () => {
    const budget = new OutputBudget(caps);
    const fields = ['a', 'b', 'c', 'd'].map((name) => ({ name, type: 'integer' }));
    const data = Array.from({ length: 100 }, (_, i) => ({ a: i, b: i, c: i, d: i }));
    admit(budget, { output_type: 'display_data', data: { 'application/vnd.dataresource+json': { schema: { fields }, data } } });
    const table = (budget.outputs[0] as { data: { 'application/vnd.dataresource+json': { data: object[]; schema: { fields: object[] }; shape: number[] } } }).data['application/vnd.dataresource+json'];
    expect(table.data).toHaveLength(3);
    expect(table.schema.fields).toHaveLength(3);
    expect(Object.keys(table.data[0])).toHaveLength(3);
    expect(table.shape).toEqual([100, 4]);
  });

  it('caps long text values and the total bytes of a run', () => {
    const budget = new OutputBudget(caps);
    admit(budget, { output_type: 'execute_result', data: { 'text/plain': 'x'.repeat(1_000) } });
    const first = budget.outputs[0];
    expect(first.output_type === 'execute_result' ? first.data['text/plain']?.length : 0).toBe(21);
    const total = new OutputBudget(caps);
    expect(total.admit(print('x'), 20_000)).toBeNull();
    expect(failureForPerson(total.failure!)).toContain('in total');
  });
});
