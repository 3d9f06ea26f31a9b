import { describe, expect, it } from 'vitest';
import type { RunResult } from '@/lib/runtime/protocol';
import { headTail, runToModel, tableToText } from './run-to-model.server';

const ok = (outputs: RunResult['outputs']): RunResult => ({ status: 'ok', durationMs: 12, outputs });

describe('what the model sees of a run', () => {
  it('keeps the head and tail of long output with a marker', () => {
    const text = `${'a'.repeat(5000)}${'b'.repeat(5000)}${'c'.repeat(3000)}`;
    const cut = headTail(text);
    expect(cut.startsWith('a'.repeat(4000))).toBe(true);
    expect(cut.endsWith('c'.repeat(2000))).toBe(true);
    expect(cut).toContain('[… 7,000 characters omitted …]');
    expect(headTail('short')).toBe('short');
  });

  it('joins adjacent stream chunks and reports status and value', async () => {
    const view = await runToModel(
      ok([
        { output_type: 'stream', name: 'stdout', text: 'part one ' },
        { output_type: 'stream', name: 'stdout', text: 'part two\n' },
        { output_type: 'execute_result', data: { 'text/plain': '42' } },
      ]),
      { includeImages: true },
    );
    expect(view.text).toBe('status: ok (12 ms)\nstdout:\npart one part two\n\nresult:\n42');
  });

  it('shows a progress line updated in place at its last state', async () => {
    const view = await runToModel(
      ok([
        { output_type: 'stream', name: 'stderr', text: ' 0%|          | 0/3\r 33%|###       | 1/3' },
        { output_type: 'stream', name: 'stderr', text: '\r100%|##########| 3/3\n' },
      ]),
      { includeImages: true },
    );
    expect(view.text).toBe('status: ok (12 ms)\nstderr:\n100%|##########| 3/3\n');
  });

  it('keeps only the last frames of a traceback', async () => {
    const traceback = ['Traceback (most recent call last):'];
    for (let i = 0; i < 8; i += 1) traceback.push(`  File "<cell-1>", line ${i + 1}, in f${i}`, `    f${i + 1}()`);
    traceback.push('RecursionError: too deep');
    const view = await runToModel(
      { status: 'error', durationMs: 3, outputs: [{ output_type: 'error', ename: 'RecursionError', evalue: 'too deep', traceback }] },
      { includeImages: true },
    );
    expect(view.text).toContain('error: RecursionError: too deep');
    expect(view.text).toContain('in f7');
    expect(view.text).not.toContain('in f0');
    expect(view.text).toContain('earlier frames omitted');
  });

  it('renders tables as compact text with shape and types', () => {
    const text = tableToText({
      schema: { fields: [{ name: 'city', type: 'string' }, { name: 'n', type: 'integer' }] },
      data: Array.from({ length: 30 }, (_, i) => ({ city: `c${i}`, n: i })),
      shape: [1200, 2],
    });
    expect(text).toContain('table: 1,200 rows × 2 columns');
    expect(text).toContain('columns: city (string), n (integer)');
    expect(text).toContain('c9 | 9');
    expect(text).not.toContain('c10 | 10');
    expect(text).toContain('[first 10 of 1,200 rows shown]');
  });

  it('attaches images, or says they are not sent', async () => {
    const result = ok([{ output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': '<Figure>' } }]);
    const withImages = await runToModel(result, { includeImages: true });
    expect(withImages.images).toEqual([{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]);
    expect(withImages.text).toContain('[image 1: shown to the user, attached]');
    const without = await runToModel(result, { includeImages: false });
    expect(without.images).toEqual([]);
    expect(without.text).toContain('images are not sent to this model');
  });

  it('resolves stored images through the blob resolver', async () => {
    const sha = 'a'.repeat(64);
    const view = await runToModel(ok([{ output_type: 'display_data', data: { 'image/png': `blob:${sha}` } }]), {
      includeImages: true,
      resolveBlob: async (requested) => (requested === sha ? { mediaType: 'image/png', base64: 'QUJD' } : null),
    });
    expect(view.images).toEqual([{ mediaType: 'image/png', data: 'QUJD' }]);
  });

  it('says when the user, not the model, ran or edited the cell', async () => {
    const result: RunResult = { status: 'ok', durationMs: 3, outputs: [{ output_type: 'stream', name: 'stdout', text: 'x is 21\n' }] };
    expect((await runToModel(result, { includeImages: false })).text).not.toContain('The user');
    const edited = await runToModel({ ...result, userRun: 'edited' }, { includeImages: false });
    expect(edited.text.split('\n')[0]).toBe('The user edited this code and ran their version; the code above is theirs and this is its result.');
    expect(edited.text).toContain('x is 21');
    expect((await runToModel({ ...result, userRun: 'rerun' }, { includeImages: false })).text).toContain('The user ran this code again');
  });

  it('lists files the run wrote', async () => {
    const view = await runToModel(ok([{ output_type: 'file', name: 'result.csv', size: 1234, mediaType: 'text/csv' }]), { includeImages: true });
    expect(view.text).toContain('wrote /output/result.csv (1.2 kB)');
  });
});

describe('a figure in words, for a model without image input', () => {
  // A 2×3 PNG.
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGP4z8AARAwQCgA3wgL+WxmqDwAAAABJRU5ErkJggg==';

  it('says its type and size and what the figure shows, never attaching it', async () => {
    const text = "<Figure size 640x480 with 1 Axes>\nAxes 1: title 'Revenue'; x axis 'year' from 2019 to 2024; y axis 'USD' from 0 to 3.2e+06; 1 line(s): revenue";
    const view = await runToModel(ok([{ output_type: 'display_data', data: { 'image/png': PNG, 'text/plain': text } }]), { includeImages: false });
    expect(view.images).toEqual([]);
    expect(view.text).toContain('[image 1 shown to the user (PNG, 2×3 px');
    expect(view.text).toContain("title 'Revenue'; x axis 'year' from 2019 to 2024");
  });

  it('gives a chart’s spec and a diagram’s DOT source', async () => {
    const spec = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', mark: 'bar', data: { values: [{ city: 'Oslo', n: 3 }] }, encoding: { x: { field: 'city', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } };
    const chart = await runToModel(ok([{ output_type: 'display_data', data: { 'image/png': PNG, 'application/vnd.vegalite.v5+json': spec } as never }]), { includeImages: false });
    expect(chart.text).toContain('an interactive chart:');
    expect(chart.text).toContain('Oslo');
    const diagram = await runToModel(ok([{ output_type: 'display_data', data: { 'image/png': PNG, 'text/vnd.graphviz': 'digraph { ask -> answer }' } }]), { includeImages: false });
    expect(diagram.text).toContain('a Graphviz diagram drawn from this DOT source:\ndigraph { ask -> answer }');
  });
});
