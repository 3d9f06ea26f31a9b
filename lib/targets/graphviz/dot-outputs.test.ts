import { describe, expect, it } from 'vitest';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { withDrawnDiagrams, type DrawDot } from './dot-outputs.client';
import { diagramBundle } from './runner.client';

const dotOutput = (dot: string, text = '<Graphviz diagram>'): Output => ({ output_type: 'display_data', data: { 'text/vnd.graphviz': dot, 'text/plain': text } });
const run = (outputs: Output[]): RunResult => ({ status: 'ok', durationMs: 1, outputs });

function recordingDraw(): DrawDot & { calls: string[] } {
  const calls: string[] = [];
  const draw = async (dot: string) => {
    calls.push(dot);
    if (dot.includes('{{')) return { ok: false as const, failure: { kind: 'code' as const, engine: 'Graphviz', ename: 'DotSyntaxError', evalue: 'syntax error in line 1 near {' } };
    return { ok: true as const, bundle: diagramBundle({ ok: true, svg: `<svg>${dot}</svg>`, png: 'UE5H', width: 10.4, height: 20 }) };
  };
  return Object.assign(draw, { calls });
}

describe('withDrawnDiagrams', () => {
  it('leaves a run without DOT as it is (same object)', async () => {
    const result = run([{ output_type: 'stream', name: 'stdout', text: 'hi\n' }]);
    expect(await withDrawnDiagrams(result, recordingDraw())).toBe(result);
  });

  it('adds the SVG shown and the PNG for the model beside the source, keeping Python’s own text', async () => {
    const draw = recordingDraw();
    const result = await withDrawnDiagrams(run([dotOutput('digraph { a -> b }'), dotOutput('graph { x }', 'Graph with 1 node')]), draw);
    expect(draw.calls).toEqual(['digraph { a -> b }', 'graph { x }']);
    expect(result.outputs[0]).toEqual({
      output_type: 'display_data',
      data: { 'text/vnd.graphviz': 'digraph { a -> b }', 'image/svg+xml': '<svg>digraph { a -> b }</svg>', 'image/png': 'UE5H', 'text/plain': '<Graphviz diagram, 10×20>' },
    });
    expect(result.outputs[1]).toMatchObject({ data: { 'text/plain': 'Graph with 1 node', 'image/svg+xml': '<svg>graph { x }</svg>' } });
  });

  it('says why a diagram was not drawn, keeping its source for the model to fix', async () => {
    const result = await withDrawnDiagrams(run([dotOutput('digraph {{')]), recordingDraw());
    expect(result.status).toBe('ok');
    expect(result.outputs[0]).toEqual({ output_type: 'display_data', data: { 'text/vnd.graphviz': 'digraph {{', 'text/plain': '<Graphviz could not draw this diagram: DotSyntaxError: syntax error in line 1 near {>' } });
  });

  it('draws no more than the run’s image cap, counting the images it already has', async () => {
    const draw = recordingDraw();
    const png: Output = { output_type: 'display_data', data: { 'image/png': 'UE5H', 'text/plain': 'fig' } };
    const outputs = [png, ...Array.from({ length: OUTPUT_CAPS.imagesPerRun }, (_, i) => dotOutput(`digraph { n${i} }`))];
    const result = await withDrawnDiagrams(run(outputs), draw);
    expect(draw.calls).toHaveLength(OUTPUT_CAPS.imagesPerRun - 1);
    const last = result.outputs.at(-1);
    expect(last && 'data' in last ? last.data['image/svg+xml'] : 'missing').toBeUndefined();
    expect(last && 'data' in last ? last.data['text/plain'] : '').toMatch(/not drawn: a run shows at most 20 images/);
  });
});
